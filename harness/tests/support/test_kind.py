#!/usr/bin/env python3
"""A test kind through the whole road (CTest kinds.test-kind.<kind>): a kind whose whole room is
harness/tests/kinds/<kind>/ (its kind with its KindRegistration, its skeleton *.ptx.in, its family's
YAML, its emulator) is planned, assembled, run, reported and audited by `ptxcts-with-test-kinds`
(ptxcts's main with the test kinds linked in) and the fake device runner, with nothing of the kind
anywhere else:

  specs    the suite's settings (targets, documents, diagnostics, expectations; cases.yaml's top-level
           settings, its wrong devices and its cases that name no qualifier, fault or undefined
           target) beside the room's family files, in a folder of the test's own;
  list     every family of the room has kernels;
  catalog  assembled by ptxas for sm_90 with the room as the skeletons' folder (--kernels);
  run      on the fake device runner: its emulator (model) passes every case; each wrong device
           (echo, zero, shuffled, off-by-one, stale) fails every case; the JSON, Markdown and
           JUnit reports name every case;
  audit    the family's grammar, versions and targets asked of this toolkit's ptxas: no finding
           the specs do not expect, but those of targets.yaml alone (a target's PTX ISA version: the
           suite expects them in a family the test leaves out), each named.

usage: test_kind.py --room ROOM --ptxcts PTXCTS --runner FAKE_RUNNER --source SOURCE_DIR --work WORK
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

import yaml

WRONG_DEVICES = ["echo", "zero", "shuffled", "off-by-one", "stale"]


def fail(message):
    print(f"test-kind: {message}")
    sys.exit(1)


def suite_specs(source, room, out):
    """The suite's settings and the room's families in `out`; the family names."""
    specs = pathlib.Path(source) / "specs"
    out.mkdir(parents=True)
    for name in ("targets.yaml", "documents.yaml", "diagnostics.yaml"):
        shutil.copy(specs / name, out / name)
    shutil.copytree(specs / "expectations", out / "expectations")
    cases = yaml.safe_load((specs / "cases.yaml").read_text())
    plain = [c for c in cases["cases"] if not {"where", "fault", "undefined", "unused_lanes"} & c.keys()
             and c.get("rows") == "contiguous"]
    kept = {k: cases[k] for k in ("warps", "tile_bytes", "regions")}
    kept["mutants"] = {"devices": cases["mutants"]["devices"]}
    kept["cases"] = plain
    (out / "cases.yaml").write_text(yaml.safe_dump(kept, sort_keys=False))
    families, grammar = [], []
    for f in sorted(pathlib.Path(room).glob("*.yaml")):
        shutil.copy(f, out / f.name)
        family = yaml.safe_load(f.read_text())
        families.append(family["family"])
        grammar += [{"block": b["block"], "combinations": combinations(b)} for b in family.get("grammar", [])]
    if not families:
        fail(f"{room} holds no family file (*.yaml)")
    return families, grammar, [c["name"] for c in plain]


def combinations(block):
    """How many instructions a grammar block spells: the product of its positions' values."""
    n = 1
    for values in block["positions"].values():
        n *= len(values)
    return n


class Road:
    def __init__(self, args, specs):
        self.args, self.specs, self.times = args, specs, []

    def ptxcts(self, step, *argv, want=(0,), env=None):
        """`ptxcts --specs SPECS argv...`: its output; fails unless its exit status is among `want`."""
        start = time.monotonic()
        run = subprocess.run([self.args.ptxcts, "--specs", str(self.specs), *argv], capture_output=True, text=True,
                             env={**os.environ, "PTXCTS_FAKE_SPECS": str(self.specs), "PTXCTS_HISTORY": "off", **(env or {})})
        self.times.append(f"{step} {time.monotonic() - start:.1f} s")
        if run.returncode not in want:
            fail(f"{step}: ptxcts {' '.join(argv)} exited {run.returncode}, expected {' or '.join(map(str, want))}:\n"
                 + (run.stdout + run.stderr)[-3000:])
        return run.stdout + run.stderr

    def run(self, mode, reports, want):
        """A run on the fake device playing `mode`; its JSON report."""
        self.ptxcts(f"run ({mode})", "run", "-q", "--catalog", str(self.args.work / "catalog"), "--kernels",
                    self.args.room, "--runner", self.args.runner, "--reports", str(reports), want=(want,),
                    env={"PTXCTS_FAKE_MODE": mode})
        found = list(reports.glob("*.json"))
        if len(found) != 1:
            fail(f"run ({mode}): expected one JSON report in {reports}, found {len(found)}")
        return json.loads(found[0].read_text())


def family_results(report, families):
    return [r for r in report["results"] if r.get("family") in families]


def check_plan(road, families):
    """`ptxcts list`: each family's kernels (lines "FAMILY  KERNEL/*  INSTRUCTIONS [REQUIREMENTS]")."""
    listing = road.ptxcts("list", "list")
    kernels = {f: [l.split()[1].removesuffix("/*") for l in listing.splitlines() if l.split()[:1] == [f]]
               for f in families}
    for family, found in kernels.items():
        if not found:
            fail(f"list: no kernel of family {family}:\n{listing[-2000:]}")
    return [k for found in kernels.values() for k in found]


def check_catalog(road, kernels):
    """The catalog for sm_90, the room as the skeletons' folder: ptxas accepts every kernel."""
    road.ptxcts("catalog", "catalog", "--out", str(road.args.work / "catalog"), "--targets", "sm_90", "--kernels",
                road.args.room)
    manifest = json.loads((road.args.work / "catalog" / "manifest.json").read_text())
    taken = {a["kernel"] for a in manifest["assemblies"] if a["target"] == "sm_90" and a["accepted"]}
    missing = sorted(set(kernels) - taken)
    if missing:
        fail(f"catalog: ptxas did not accept {missing[:5]} for sm_90: "
             f"{[a['message'] for a in manifest['assemblies'] if a['kernel'] in missing][:3]}")


def check_runs(road, families):
    """The model passes every case of the families; each wrong device fails every one."""
    model = road.run("model", road.args.work / "run-model", 0)
    results = family_results(model, families)
    if not results or any(r["status"] != "pass" for r in results):
        fail(f"run (model): expected every case of {families} to pass, got "
             f"{[(r['kernel'], r['case'], r['status']) for r in results][:10]} ({len(results)} cases)")
    for mode in WRONG_DEVICES:
        wrong = family_results(road.run(mode, road.args.work / f"run-{mode}", 1), families)
        passed = [f"{r['kernel']}/{r['case']}" for r in wrong if r["status"] == "pass"]
        if len(wrong) != len(results) or passed:
            fail(f"run ({mode}): {len(passed)} of {len(wrong)} cases passed on a wrong device: {passed[:5]}")
    return results


def check_reports(reports, results):
    """The run's JSON, Markdown and JUnit files, each naming every kernel of the family."""
    for pattern in ("*.json", "*.md", "*.xml"):
        files = list(reports.glob(pattern))
        if len(files) != 1:
            fail(f"reports: expected one {pattern} in {reports}, found {[f.name for f in files]}")
        text = files[0].read_text()
        missing = sorted({r["kernel"] for r in results if r["kernel"] not in text})
        if missing:
            fail(f"reports: {files[0].name} does not name {missing[:5]}")


def check_audit(road):
    """The audit of the families: exit 0, or 1 for findings about targets.yaml's versions alone."""
    out = road.ptxcts("audit", "audit", "--catalog", str(road.args.work / "catalog"), "--reports",
                      str(road.args.work / "audit"), want=(0, 1))
    audit = json.loads(next((road.args.work / "audit").glob("*.json")).read_text())
    failing = [f["id"] for f in audit["findings"] if f["fails_audit"]]
    foreign = [i for i in failing if "/target-version/" not in i]
    if foreign:
        fail(f"audit: findings the specs do not expect: {foreign}\n{out[-3000:]}")
    blocks = [g for g in audit["grammar"] if g["block"] in {b["block"] for b in road.grammar}]
    forms = [f for f in audit["forms"] if f["family"] in road.families]
    if len(blocks) != sum(b["combinations"] for b in road.grammar) or any(f["verdict"] != "confirmed" for f in forms):
        fail(f"audit: the families' grammar was not all probed ({len(blocks)} combinations) or a hand-listed form "
             f"was not confirmed: {[(f['name'], f['verdict']) for f in forms]}")
    line = next((l for l in out.splitlines() if l.startswith("audit: ") and "statements" in l), "audit: no summary")
    return (f"{line.split(' -> ')[0]}; the families' {len(blocks)} grammar combinations probed on every target, "
            f"{len(forms)} hand-listed forms confirmed; of targets.yaml alone: {', '.join(failing) or 'none'}")


def main():
    p = argparse.ArgumentParser()
    for name in ("room", "ptxcts", "runner", "source", "work"):
        p.add_argument(f"--{name}", required=True)
    args = p.parse_args()
    args.work = pathlib.Path(args.work)
    shutil.rmtree(args.work, ignore_errors=True)
    families, grammar, cases = suite_specs(args.source, args.room, args.work / "specs")
    road = Road(args, args.work / "specs")
    road.families, road.grammar = families, grammar
    road.ptxcts("check-specs", "check-specs")
    kernels = check_plan(road, families)
    check_catalog(road, kernels)
    results = check_runs(road, families)
    check_reports(args.work / "run-model", results)
    summary = check_audit(road)
    print(f"test-kind: families {', '.join(families)}: {len(kernels)} kernels, {len(results)} cases ({', '.join(cases)}) pass on the "
          f"emulator and fail on each of {', '.join(WRONG_DEVICES)}; reports name them; "
          f"{summary}")
    print(f"test-kind: times: {'; '.join(road.times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
