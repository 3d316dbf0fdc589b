#!/usr/bin/env python3
"""No spec and no document of ours names a document by a number of ours: the specs cite each
document by its public identity (specs/documents.yaml: an id that is a slug of it, its title and
address), never as a seed file's number ("seed-003", "seed 001", as the seeds under ../shared are
numbered). Reads specs/ (every file), README.md, docs/*.md and reports/README.md; prints each
occurrence as FILE:LINE: the text, then the count; exit 1 on any. The reports the tool writes are
checked by AuditReport.NamesEachDocumentByItsPublicIdentity (harness/tests/judge/test_audit.cpp).

usage: check_document_ids.py ROOT          the repository
       check_document_ids.py --self-test   the checker on a tree with a seed number planted"""
import os, re, sys, tempfile

# "seed-003", "seed 001", "Seed 004's", "seeds 001": a seed file's number; not "seed: 7" (a case's random seed).
NUMBER = re.compile(r"\bseeds?[- ]0\d*", re.I)


def files(root):
    out = []
    for top, _, names in os.walk(os.path.join(root, "specs")):
        out += [os.path.join(top, n) for n in sorted(names)]
    out += [os.path.join(root, "README.md"), os.path.join(root, "reports", "README.md")]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        out += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))
    return [p for p in sorted(set(out)) if os.path.isfile(p)]


def check(root):
    found = 0
    for path in files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                for m in NUMBER.finditer(line):
                    found += 1
                    print(f"{os.path.relpath(path, root)}:{n}: '{m.group(0)}' names a document by a number of ours; "
                          "expected its id in specs/documents.yaml and its title")
    print(f"document ids: {len(files(root))} files, {found} numbers of ours")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "specs"))
        clean = "examples:\n  - example: notes-x1\n    document: xuwh-2025-ldmatrix-notes\ncases:\n  - seed: 7\n"
        with open(os.path.join(root, "specs", "family.yaml"), "w") as f:
            f.write(clean)
        if check(root) != 0:
            print("self-test: a clean tree fails")
            return 1
        for planted in ("    document: seed-003\n", "# as seed 001 gives it\n", "    source: \"Seed 004's kernel\"\n"):
            with open(os.path.join(root, "specs", "family.yaml"), "w") as f:
                f.write(clean + planted)
            if check(root) != 1:
                print(f"self-test: the planted {planted.strip()!r} is not found")
                return 1
    print("self-test: ok (a clean tree passes; each planted number is found)")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    return 1 if check(sys.argv[1]) else 0


if __name__ == "__main__":
    sys.exit(main())
