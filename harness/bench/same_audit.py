#!/usr/bin/env python3
"""Whether two audit reports (JSON) say the same: every field equal but when they were written
(run.date) and from which tree (run.suite_commit). A speed change of the audit must leave its
verdicts as they were: write the report with the old and the new binary, then
    same_audit.py OLD/audit-cuda13.0.json NEW/audit-cuda13.0.json
Exit 0 when the same; 1 and the first differing paths otherwise."""
import json
import sys

NOT_COMPARED = {("run", "date"), ("run", "suite_commit")}


def differences(a, b, path=()):
    if path in NOT_COMPARED:
        return
    if type(a) is not type(b):
        yield path
    elif isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                yield path + (k,)
            else:
                yield from differences(a[k], b[k], path + (k,))
        if list(a) != list(b):
            yield path + ("<key order>",)
    elif isinstance(a, list):
        if len(a) != len(b):
            yield path + ("<length>",)
        for k, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, path + (k,))
    elif a != b:
        yield path


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_audit.py OLD.json NEW.json")
    old, new = (json.load(open(f, encoding="utf-8")) for f in sys.argv[1:])
    found = []
    for d in differences(old, new):
        found.append("/".join(map(str, d)))
        if len(found) == 20:
            break
    for f in found:
        print(f"differs: {f}")
    print("same audit" if not found else f"NOT the same audit ({len(found)}{'+' if len(found) == 20 else ''} paths)")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
