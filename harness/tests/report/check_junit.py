#!/usr/bin/env python3
"""Checks a ptxcts JUnit XML file the way CI servers read it, against the run's JSON report.

usage: check_junit.py REPORT.json[.gz] JUNIT.xml [--expect-failures N] [--xsd FILE]

The rule the file must keep: a <failure> or <error> only where `ptxcts run` exits 1, i.e. for a case
that is not a fault case, not a known difference, and whose status is fail (<failure>) or error,
crash, timeout (<error>); a case whose status is skip(ped) or not-supported is <skipped>, a fault
case too; one testcase per result, named KERNEL/CASE (as `--cases` takes it); besides them, one
testcase per claim (classname "ptxcts.FAMILY.claims", skipped where not checkable, never red) and
one for the run's verdict (classname "ptxcts.run", a <failure> exactly where the run exits 1); every
testcase has a time; the totals on every suite and on the root are what a consumer counts from the
testcases.

Three readers, so that "agrees" means what a CI server would show:
  - Jenkins' JUnit schema (xunit-plugin junit-10.xsd), through `xmlschema`;
  - `junitparser` (>= 3.1, installed with pip), counting testcases and their results as CI plugins do;
  - the JSON report, read directly.
Exit status: 0 agrees; 1 a disagreement (each printed on its own line); 2 unreadable input;
77 (CTest's skip) without junitparser or xmlschema.
"""
import sys

sys.dont_write_bytecode = True  # run from the source tree: leave no __pycache__ there

import argparse
import gzip
import json
import pathlib
from collections import Counter

try:
    import junitparser
    import xmlschema
except ImportError as e:
    print(f"check_junit: skipped: Python module '{e.name}' is missing (harness/scripts/bootstrap.sh --tests installs it)")
    sys.exit(77)

XSD = pathlib.Path(__file__).resolve().parents[3] / "build" / "test-tools" / "junit-10.xsd"  # bootstrap.sh --tests fetches it
RED = {"fail": "failure", "error": "error", "crash": "error", "timeout": "error"}  # status -> element
SKIPPED = {"skip", "skipped", "not-supported"}  # "skip" up to schema 8, the other two from 9 on
MAX_LINES = 10  # a broken writer breaks every testcase alike: the first few say enough


def read_report(path):
    """The report's JSON; gzip'd or not, whatever its name says."""
    raw = pathlib.Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def is_red(r):
    """What `ptxcts run` exits 1 for (results/outcome.cpp, needs_action)."""
    # undefined on its target (outcome "undefined"): an observation, never red, as a fault case
    return (r["status"] in RED and not r.get("fault_case") and not r.get("known")
            and r.get("outcome") != "undefined")


def schema_problems(xml_path, xsd_path):
    schema = xmlschema.XMLSchema(str(xsd_path))
    errors = list(schema.iter_errors(str(xml_path)))
    problems = [f"schema: {e.reason} (at {e.path})" for e in errors[:MAX_LINES]]
    if len(errors) > MAX_LINES:
        problems.append(f"schema: ... and {len(errors) - MAX_LINES} more violations")
    return problems


def suites_of(xml):
    """The suites as junitparser gives them: the root is <testsuites>, or a single <testsuite>."""
    return [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)


def kinds(case):
    """Which of failure, error, skipped a testcase carries, as junitparser reads it."""
    found = set()
    for res in case.result:  # a list from junitparser 2.0 on
        if isinstance(res, junitparser.Failure):
            found.add("failure")
        elif isinstance(res, junitparser.Error):
            found.add("error")
        elif isinstance(res, junitparser.Skipped):
            found.add("skipped")
    return found


def count(cases):
    """Totals as a CI server counts them: testcases, and testcases with each kind of result."""
    c = Counter(tests=len(cases))
    for case in cases:
        c.update(kinds(case))
    return {k: c[k] for k in ("tests", "failure", "error", "skipped")}


def attribute(element, name):
    try:
        return getattr(element, name)  # junitparser: int, or None where the attribute is absent
    except ValueError:
        return "not a number"


def total_problems(where, element, counted):
    """The attributes a file states against what its testcases add up to."""
    problems = []
    for attr, key in (("tests", "tests"), ("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
        stated = attribute(element, attr)
        if stated is None and attr == "skipped":
            continue  # optional (and Jenkins' schema allows none on the root)
        if stated != counted[key]:
            problems.append(f"{where}: {attr}=\"{stated}\" but its testcases count {counted[key]}")
    return problems


def result_for(case, results):
    """The report's result a testcase stands for: its name is KERNEL/CASE (from issue 41 on); before,
    classname was "ptxcts.FAMILY.KERNEL" and name CASE, so any dot-separated tail of classname may be
    the kernel (kernel names hold dots), and a name "KERNEL / CASE" is read too."""
    classname, name = case.classname or "", case.name or ""
    parts = classname.split(".")
    keys = [tuple(name.split("/", 1))] if "/" in name and " / " not in name else []
    keys += [(".".join(parts[i:]), name) for i in range(len(parts))]
    if " / " in name:
        keys.append(tuple(name.split(" / ", 1)))
    for key in keys:
        if key in results:
            return results[key]
    return None


def expected(r):
    """The element a result's testcase carries: failure, error, skipped, or none (None)."""
    if is_red(r):
        return RED[r["status"]]
    return "skipped" if r["status"] in SKIPPED else None


def is_claim(case):
    return (case.classname or "").endswith(".claims")


def is_verdict(case):
    return (case.classname or "") == "ptxcts.run"


def extra_problems(cases, report):
    """The claims' and the verdict's testcases against the report, and a time on every testcase."""
    problems = []
    untimed = [c for c in cases if c._elem.get("time") is None]
    if untimed:
        problems.append(f"{len(untimed)} testcases have no time, e.g. {untimed[0].classname} / {untimed[0].name}")
    claims = {c["id"]: c for c in report.get("claims", [])}
    seen = Counter()
    for case in filter(is_claim, cases):
        c = claims.get(case.name)
        if c is None:
            problems.append(f"claim testcase {case.classname} / {case.name}: no claim of the report")
            continue
        seen[case.name] += 1
        found = kinds(case)
        want = {"skipped"} if c["verdict"] == "not-checkable" else set()
        if found != want:
            problems.append(f"claim {case.name} ({c['verdict']}): has <{'/'.join(sorted(found)) or 'nothing'}>, "
                            f"expected <{'/'.join(want) or 'nothing'}>")
    missing = [i for i in claims if not seen[i]]
    if missing or any(n > 1 for n in seen.values()):
        problems.append(f"claims: {len(missing)} without a testcase, {sum(n > 1 for n in seen.values())} with several")
    verdicts = list(filter(is_verdict, cases))
    red = any(map(is_red, report["results"]))
    if len(verdicts) != 1:
        problems.append(f"{len(verdicts)} verdict testcases (classname ptxcts.run), expected 1")
    elif ("failure" in kinds(verdicts[0])) != red:
        problems.append(f"the verdict testcase is {'red' if not red else 'not red'}, but the run exits {int(red)}")
    return problems


def testcase_problems(cases, results):
    """Every testcase against the report's results: one testcase per result, each with the element
    its result calls for."""
    by_key = {(r["kernel"], r["case"]): r for r in results}
    stray_red, wrong, matched, unmatched = [], [], Counter(), []
    for case in cases:
        label = f"testcase {case.classname} / {case.name}"
        r, found = result_for(case, by_key), kinds(case)
        if r is None:
            if found & {"failure", "error"}:  # always said: a CI server shows these red
                stray_red.append(f"{label}: <{'/'.join(sorted(found))}> but no result of the report is this testcase")
            unmatched.append(label)
            continue
        matched[(r["kernel"], r["case"])] += 1
        want = expected(r)
        if found != ({want} if want else set()):
            why = "a fault case, " if r.get("fault_case") else "a known difference, " if r.get("known") else ""
            wrong.append(f"{label}: has <{'/'.join(sorted(found)) or 'nothing'}>, expected <{want or 'nothing'}> "
                         f"({why}status {r['status']})")
    if len(wrong) > MAX_LINES:
        wrong[MAX_LINES:] = [f"... and {len(wrong) - MAX_LINES} more testcases like these"]
    problems = stray_red + wrong
    if unmatched:
        problems.append(f"{len(unmatched)} testcases are no result of the report, e.g. {'; '.join(unmatched[:3])}")
    twice = [k for k, n in matched.items() if n > 1]
    if twice:
        problems.append(f"{len(twice)} results have more than one testcase, e.g. {twice[0][0]} / {twice[0][1]}")
    lost = [r for r in results if is_red(r) and not matched[(r["kernel"], r["case"])]]
    problems += [f"result {r['kernel']} / {r['case']} ({r['status']}) has no testcase" for r in lost[:MAX_LINES]]
    return problems


def count_problems(totals, results):
    """The file's counts against the report's: what a CI server shows must be what the run found."""
    want_red = sum(map(is_red, results))
    want_skipped = sum(expected(r) == "skipped" for r in results)
    problems = []
    if totals["tests"] != len(results):
        problems.append(f"{totals['tests']} testcases, but the report has {len(results)} results")
    if totals["failure"] + totals["error"] != want_red:
        problems.append(f"{totals['failure']} failures + {totals['error']} errors, but the report has {want_red} "
                        "failing results (not fault cases, not known; fail, error, crash, timeout)")
    if totals["skipped"] != want_skipped:
        problems.append(f"{totals['skipped']} skipped, but the report has {want_skipped} skipped or not-supported results")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="the run's JSON report (gzip'd or not)")
    ap.add_argument("junit", help="the JUnit XML file written beside it")
    ap.add_argument("--expect-failures", type=int, metavar="N", help="failures + errors must be N")
    ap.add_argument("--xsd", default=XSD, help="the JUnit schema (default: build/test-tools/junit-10.xsd, which bootstrap.sh --tests fetches)")
    args = ap.parse_args()
    if not pathlib.Path(args.xsd).is_file():  # a lost schema must not pass for a valid file: skipped, saying why
        print(f"check_junit: skipped: the JUnit schema {args.xsd} is missing (harness/scripts/bootstrap.sh --tests fetches it; harness/tests/data/junit/README.md says from where)")
        return 77
    try:
        report = read_report(args.report)
        xml = junitparser.JUnitXml.fromfile(args.junit)
        problems = schema_problems(args.junit, args.xsd)
    except (OSError, ValueError, SyntaxError, xmlschema.XMLSchemaException) as e:  # bad JSON, bad XML
        print(f"check_junit: cannot read the input: {e}")
        return 2
    if not isinstance(report, dict) or "results" not in report:
        print(f"check_junit: {args.report} is not a run report (no \"results\")")
        return 2

    suites = suites_of(xml)
    per_suite = [(s, count(list(s))) for s in suites]
    totals = count([c for s in suites for c in s])
    for s, counted in per_suite:
        problems += total_problems(f"testsuite {s.name}", s, counted)
    if xml is not suites[0]:
        problems += total_problems("root", xml, totals)
    every = [c for s in suites for c in s]
    of_cases = [c for c in every if not is_claim(c) and not is_verdict(c)]
    problems += testcase_problems(of_cases, report["results"])
    problems += extra_problems(every, report)
    totals = count(of_cases)  # what follows speaks of the cases' testcases
    problems += count_problems(totals, report["results"])
    summary = report.get("summary", {})  # schema 9 on: what the run counted as needing action
    if "needing_action" in summary and summary["needing_action"] != totals["failure"] + totals["error"]:
        problems.append(f"the report's summary says {summary['needing_action']} cases need action, "
                        f"the file has {totals['failure'] + totals['error']} failures and errors")
    if args.expect_failures is not None and totals["failure"] + totals["error"] != args.expect_failures:
        problems.append(f"expected {args.expect_failures} failures + errors, the file has "
                        f"{totals['failure']} + {totals['error']}")

    for p in problems:
        print(f"check_junit: {p}")
    head = (f"junit: {totals['tests']} case tests, {totals['failure']} failures, {totals['error']} errors, "
            f"{totals['skipped']} skipped")
    if problems:
        print(f"{head}: {len(problems)} disagreements with the report")
        return 1
    print(f"{head}: agrees with the report (schema OK, junitparser OK)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
