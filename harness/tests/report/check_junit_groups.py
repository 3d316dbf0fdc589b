#!/usr/bin/env python3
"""The JUnit file's groups as Jenkins and GitLab make them, against the specs' families and the run's forms.

usage: check_junit_groups.py REPORT.json[.gz] JUNIT.xml SPECS_DIR
       check_junit_groups.py RUN_DIR SPECS_DIR   (the one .json and .xml a run wrote there)

Jenkins' junit plugin splits a testcase's classname at its LAST dot: what is before is the package,
what is after the class (hudson.tasks.junit.CaseResult: getPackageName / getSimpleName). GitLab shows
the classname as the test's suite. So the file groups as people read the suite only if:
  - Jenkins' packages are exactly "ptxcts.FAMILY" for the families the specs define (each spec file's
    `family:`), plus "ptxcts" holding the run's verdict alone (class "run", test "verdict");
  - in a family's package, the classes are exactly the forms (instructions) the report's results of
    that family name, written with '-' for '.', and "claims" where the report has claims of it, and
    each form's class holds exactly that form's cases, named KERNEL/CASE;
  - GitLab's suites are then exactly those (family, form) pairs, each a suite of its own.
The expected groups come from the specs and the report's results, never from the JUnit writer.
Exit status: 0 the groups are right; 1 they are not (each difference printed); 2 unreadable input.
"""
import sys

sys.dont_write_bytecode = True  # run from the source tree: leave no __pycache__ there

import gzip
import json
import pathlib
import re
import xml.etree.ElementTree as ET
from collections import defaultdict


def read_report(path):
    raw = pathlib.Path(path).read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def spec_families(specs):
    """Each spec file's top-level `family:` (the specs' own word), read as text."""
    found = set()
    for f in sorted(pathlib.Path(specs).glob("*.yaml")):
        m = re.search(r"^family:\s*([A-Za-z0-9_-]+)\s*$", f.read_text(), re.M)
        if m:
            found.add(m.group(1))
    return found


def level(text):
    """A level of a classname as the docs define it: '.' becomes '-', a kernel's instructions ' ; '
    become '+' (docs/reading-reports.md)."""
    return text.replace(" ; ", "+").replace(".", "-").replace(" ", "_")


def main():
    args = sys.argv[1:]
    if len(args) == 2 and pathlib.Path(args[0]).is_dir():
        found = [sorted(pathlib.Path(args[0]).glob(g)) for g in ("*.json", "*.xml")]
        if any(len(f) != 1 for f in found):
            print(f"check_junit_groups: {args[0]}: expected one .json and one .xml, found {found}")
            return 2
        args = [str(found[0][0]), str(found[1][0]), args[1]]
    if len(args) != 3:
        print("\n".join(__doc__.splitlines()[2:4]))
        return 2
    try:
        report = read_report(args[0])
        root = ET.parse(args[1]).getroot()
    except (OSError, ValueError, ET.ParseError) as e:
        print(f"check_junit_groups: cannot read the input: {e}")
        return 2
    families = spec_families(args[2])
    problems = []

    # Jenkins: package = classname before its last dot, class = after it. GitLab: suite = classname.
    jenkins = defaultdict(lambda: defaultdict(set))  # package -> class -> test names
    gitlab = defaultdict(set)  # suite -> test names
    for tc in root.iter("testcase"):
        classname, name = tc.get("classname", ""), tc.get("name", "")
        dot = classname.rfind(".")
        package, cls = (classname[:dot], classname[dot + 1:]) if dot >= 0 else ("(root)", classname)
        jenkins[package][cls].add(name)
        gitlab[classname].add(name)

    want_packages = {"ptxcts." + f for f in families} | {"ptxcts"}
    if set(jenkins) != want_packages:
        extra, lost = sorted(set(jenkins) - want_packages), sorted(want_packages - set(jenkins))
        problems.append(f"Jenkins' packages: {len(extra)} beyond the families (e.g. {extra[:2]}), "
                        f"{len(lost)} missing (e.g. {lost[:2]})")
    if dict(jenkins.get("ptxcts", {})) != {"run": {"verdict"}}:
        problems.append(f"package ptxcts: {dict(jenkins.get('ptxcts', {}))}, expected the run's verdict alone")

    # The forms and their cases, from the report's results; the claims by family.
    want = defaultdict(lambda: defaultdict(set))
    for r in report["results"]:
        want["ptxcts." + r["family"]][level(r["instruction"])].add(f"{r['kernel']}/{r['case']}")
    for c in report.get("claims", []):
        want["ptxcts." + c["family"]]["claims"].add(c["id"])
    for package in sorted(want_packages - {"ptxcts"}):
        got, expected = jenkins.get(package, {}), want.get(package, {})
        if set(got) != set(expected):
            extra, lost = sorted(set(got) - set(expected)), sorted(set(expected) - set(got))
            problems.append(f"{package}: classes {extra[:3]} are no form of it, forms {lost[:3]} have no class "
                            f"({len(extra)} and {len(lost)})")
        wrong = [c for c in expected if c in got and got[c] != expected[c]]
        if wrong:
            problems.append(f"{package}: {len(wrong)} classes hold other tests than their form's cases, e.g. {wrong[0]}")
        dotted = [c for c in got if "." in c]
        if dotted:
            problems.append(f"{package}: {len(dotted)} classes have a dot inside, e.g. {dotted[0]}")

    # GitLab: a suite per (family, form), and per family's claims, and the verdict's.
    want_suites = {f"{p}.{c}" for p, classes in want.items() for c in classes} | {"ptxcts.run"}
    if set(gitlab) != want_suites:
        problems.append(f"GitLab's suites: {len(set(gitlab) - want_suites)} beyond the families' forms, "
                        f"{len(want_suites - set(gitlab))} missing")

    for p in problems:
        print(f"check_junit_groups: {p}")
    forms = sum(len([c for c in classes if c != "claims"]) for p, classes in jenkins.items() if p != "ptxcts")
    claims = sum("claims" in classes for classes in jenkins.values())
    print(f"junit groups: Jenkins {len(jenkins)} packages ({len(set(jenkins) & want_packages - {'ptxcts'})} "
          f"families, {int('ptxcts' in jenkins)} the run's verdict, {len(set(jenkins) - want_packages)} other), "
          f"{forms} form classes + {claims} claims classes; GitLab {len(gitlab)} suites"
          f"{': ' + str(len(problems)) + ' differences' if problems else ': as the specs and the report say'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
