#!/usr/bin/env python3
"""The figures the documents quote are those of the committed reports and of the tree: which schema
each committed run report and audit is (reports/README.md), the Markdown example's cases, kernels and
outcome counts (those of the committed CUDA 13.0 run report), the schema versions the run report's
JSON Schema allows, how many families the suite has wherever a document counts them (the specs'
families, which the committed reports' results and the package's CTest folder name), and no
screenshot said to be committed that is not; and the README's quick start: the release first, then
two source commands, the second .ci/run's. Prints each figure checked; exit 1 on any that is off.

usage: check_doc_figures.py ROOT"""
import glob, gzip, json, os, re, sys

WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def load(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def number(text):
    return int(text.replace(",", ""))


def main(root):
    readme = open(os.path.join(root, "reports", "README.md"), encoding="utf-8").read()
    flat = re.sub(r"\s+", " ", readme)
    runs = {os.path.basename(p): load(p) for p in glob.glob(os.path.join(root, "reports", "nvidia-*.json.gz"))}
    audits = {os.path.basename(p): load(p) for p in glob.glob(os.path.join(root, "reports", "audit-cuda*.json.gz"))}
    check(runs and audits, f"reports/: {len(runs)} committed run reports, {len(audits)} audits")

    # "The run reports committed here: schema 10 (CUDA 13.0, cubin and JIT) and schema 9 (CUDA 11.8, ...)"
    m = re.search(r"The run reports committed here: (.*?)\), each read", flat)
    said = {}
    for schema, releases in re.findall(r"schema (\d+) \(CUDA ([^)]*)", m.group(1) + ")" if m else ""):
        for rel in re.findall(r"\d+\.\d+", releases):
            said[rel] = int(schema)
    for name, r in sorted(runs.items()):
        rel = r["run"]["cuda_release"]
        check(said.get(rel) == r["schema_version"],
              f"reports/README.md: {name} is schema {r['schema_version']} (the README says {said.get(rel)})")
    m = re.search(r"Its `kind` is \"audit\", its `schema_version` (\d+)", flat)
    for name, a in sorted(audits.items()):
        check(m and int(m.group(1)) == a["schema_version"],
              f"reports/README.md: {name} is audit schema {a['schema_version']} (the README says {m and m.group(1)})")
    m = re.search(r"`ptxcts run` writes schema (\d+)", flat)
    newest = max(r["schema_version"] for r in runs.values())
    check(m and int(m.group(1)) >= newest, f"reports/README.md: ptxcts run writes schema {m and m.group(1)} (>= {newest})")
    schema = json.load(open(os.path.join(root, "reports", "schema", "run-report.schema.json")))
    allowed = schema["properties"]["schema_version"]["enum"]
    m = re.search(r"`run-report.schema.json`, schema versions (\d+) to (\d+)", flat)
    check(m and [int(m.group(1)), int(m.group(2))] == [min(allowed), max(allowed)],
          f"reports/README.md: the run report schema allows {min(allowed)} to {max(allowed)} "
          f"(the README says {m and m.group(0)})")

    # The Markdown example: the committed CUDA 13.0 cubin run's counts.
    h100 = next(r for n, r in runs.items() if n.endswith("-cuda13.0.json.gz"))
    m = re.search(r"`\*\*Cases:\*\* ([\d,]+) \(([\d,]+) kernels, each with its cases\): ([^`]*)`", flat)
    check(m is not None, "reports/README.md: a Markdown example of the cases line")
    if m:
        check(number(m.group(1)) == h100["summary"]["cases"] and number(m.group(2)) == h100["summary"]["kernels"],
              f"reports/README.md: the example's {m.group(1)} cases, {m.group(2)} kernels are the CUDA 13.0 report's "
              f"{h100['summary']['cases']:,}, {h100['summary']['kernels']:,}")
        labels = {"passed": "pass", "failed": "fail", "not supported": "not-supported", "skipped": "skipped",
                  "faulted as the rule says": "faulted", "ran without a fault": "no-fault",
                  "faulted where the manual allows it": "faulted-where-allowed",
                  "undefined on its target": "undefined"}
        parts = dict((labels.get(w.strip()), number(n)) for n, w in re.findall(r"(\d[\d,]*) ([a-z ]+)", m.group(3)))
        want = {k: v for k, v in h100["totals"].items() if v}
        check(parts == want, f"reports/README.md: the example's outcome counts {parts} are the report's {want}")

    # Families: the specs', the reports', the package's CTest folder's; every document that counts them.
    families = {r["family"] for r in h100["results"]}
    specs = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(root, "specs", "*.yaml"))}
    check(families <= specs, f"specs/: a spec per family of the reports ({sorted(families)})")
    pkg = open(os.path.join(root, "harness", "package", "CMakeLists.txt")).read()
    m = re.search(r"set\(PTXCTS_FAMILIES ([a-z ]+)\)", pkg)
    check(m and set(m.group(1).split()) == families, f"harness/package: the CTest folder's families {m and m.group(1)}")
    for doc in ["README.md", os.path.join("reports", "README.md")] + sorted(
            os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md"))):
        text = re.sub(r"\s+", " ", open(os.path.join(root, doc), encoding="utf-8").read())
        for w, rest in re.findall(r"\b(two|three|four|five|six|seven) families( of that commit)?", text, re.I):
            check(rest or WORDS[w.lower()] == len(families),
                  f"{doc}: '{w} families' is the suite's {len(families)}" + (" (of another commit, said so)" if rest else ""))

    # Screenshots: none said to be committed unless one is.
    pngs = glob.glob(os.path.join(root, "reports", "**", "*.png"), recursive=True)
    for claim in (r"\.png\S* +the top of the page[^\n]*where committed", r"`[a-z]+\.png` is the top of it",
                  r"a `\.png` beside it is a screenshot"):
        check(pngs or not re.search(claim, readme), f"reports/README.md: no PNG said to be committed ({len(pngs)} are)")
    # The README's first command writes where it says, and does not claim the committed reports' way.
    top = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    check("as the committed reports were" not in top, "README.md: no claim that --reports reports writes as committed")
    # The two front doors: the release first; then exactly two source commands, the second CI's.
    quick = top[top.index("## Quick start"):]
    check(quick.index("tar xzf ptxcts-") < quick.index("harness/scripts/bootstrap.sh"),
          "README.md: the quick start shows the release before the source commands")
    block = re.search(r"### From source.*?```sh\n(.*?)```", quick, re.S)
    commands = [re.sub(r"\s+#.*$", "", line).strip() for line in block.group(1).splitlines() if line.strip()] if block else []
    ci = [line for line in open(os.path.join(root, ".ci", "run")).read().splitlines() if line and not line.startswith("#")]
    check(len(commands) == 2, f"README.md: the source quick start is two commands ({len(commands)})")
    check(commands[-1:] == ci[-1:], f"README.md: its test command is .ci/run's ({commands[-1:]} vs {ci[-1:]})")
    check(commands[:1] == ["harness/scripts/bootstrap.sh && build/harness/ptxcts run"],
          "README.md: the main command installs no test tools (bootstrap.sh without --tests)")
    # ... and bootstrap.sh keeps it so: the test tools only in its --tests list.
    boot = open(os.path.join(root, "harness", "scripts", "bootstrap.sh")).read()
    lists = re.findall(r"packages\+?=\((.*?)\)", re.sub(r"#[^\n]*", "", boot), re.S)
    run_list, test_list = (lists + ["", ""])[0].split(), (lists + ["", ""])[1].split()
    tools = {"chromium", "slurm-wlm", "munge", "libgtest-dev", "libbenchmark-dev", "python3-pip", "python3-yaml",
             "postgresql"}
    check(run_list and not tools & set(run_list) and tools <= set(test_list),
          f"bootstrap.sh: the build and run packages ({' '.join(run_list)}) hold no test tool; --tests adds them")
    pip = boot[:boot.index('if [ -n "$tests" ]')] if 'if [ -n "$tests" ]' in boot else boot
    check("pip install" not in pip, "bootstrap.sh: no pip install outside --tests")
    print(f"{len(failures)} failed" if failures else "all figures agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
