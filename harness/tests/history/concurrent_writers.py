#!/usr/bin/env python3
"""Writers at once into one history: nothing lost, each run once (issue 44's concurrency test).

Into one history (an SQLite file, or the PostgreSQL server of the CTest fixture `postgres`, whose URL
is $POSTGRES_TEST_URL): RUNS `ptxcts run` at once on the fake device runner, each playing another GPU
(its own name and UUID), each recording into the history as it ends; then IMPORTERS `ptxcts history
import` processes at once, each importing every report of those runs again (and in another order).
Then the history must hold exactly RUNS runs, one per GPU, each once (the imports added nothing), and
every report's cases: nothing lost, nothing doubled. The counts are read back with the database's
own client (Python's sqlite3, psql), not with ptxcts, and compared with the reports' own.

usage: concurrent_writers.py PTXCTS FAKE_RUNNER CATALOG OUT_DIR (sqlite|postgresql) [--runs N] [--importers N]
                             [--specs SPECS]
--specs: the specs CATALOG was made from, where they are not the source tree's (CTest gives the small
suite's, chaos.catalog's: what is checked is the history's writers at once, not every family; the
runs take 0.3 CPU-s each, the whole suite's 9.8).
Exit 77 (CTest: skipped) for postgresql where $POSTGRES_TEST_URL is not set (no server)."""
import argparse, glob, gzip, json, os, shutil, sqlite3, subprocess, sys, time

sys.dont_write_bytecode = True


def fail(why):
    print("FAIL:", why)
    sys.exit(1)


def gpu(k):
    return json.dumps([{"ordinal": 0, "name": f"Fake GPU {k}", "major": 9, "minor": 0, "driver_cuda": "13.0",
                        "driver_version": "580.1", "uuid": f"GPU-00000000-0000-0000-0000-0000000000{k:02d}",
                        "pci_bus_id": f"0000:{k + 16:02x}:00.0"}])


def sql_rows(history, query):
    """Rows of `query` read with the database's own client."""
    if history.startswith("postgresql://"):
        p = subprocess.run(["psql", history, "-X", "-A", "-t", "-F", "\t", "-c", query], capture_output=True, text=True,
                           timeout=60)
        if p.returncode:
            fail(f"psql: {p.stderr.strip()}")
        return [line.split("\t") for line in p.stdout.splitlines() if line]
    with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as db:
        return [[str(v) for v in row] for row in db.execute(query)]


def start_all(cmds):
    """Starts every command at once; returns [(cmd, returncode, output)]."""
    procs = [(c, subprocess.Popen(c, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
             for c, e in cmds]
    return [(c, p.wait(timeout=600), p.stdout.read()) for c, p in procs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptxcts")
    ap.add_argument("runner")
    ap.add_argument("catalog")
    ap.add_argument("out")
    ap.add_argument("kind", choices=("sqlite", "postgresql"))
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--importers", type=int, default=4)
    ap.add_argument("--specs", help="the specs CATALOG was made from (the ptxcts runs and the fake GPUs read them)")
    a = ap.parse_args()
    out = os.path.join(a.out, a.kind)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if a.kind == "postgresql":
        history = os.environ.get("POSTGRES_TEST_URL", "")
        if not history:
            print("SKIPPED: no PostgreSQL server ($POSTGRES_TEST_URL unset: the fixture postgres.start did not start one)")
            return 77
        # A fresh database of the server for this test, so that a rerun starts empty.
        base, _, _ = history.rpartition("/")
        db = f"concurrent_{os.getpid()}"
        for q in (f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}"):
            subprocess.run(["psql", history, "-X", "-q", "-c", q], check=True, capture_output=True, timeout=60)
        history = f"{base}/{db}"
    else:
        history = os.path.join(out, "history.sqlite")

    specs = ["--specs", a.specs] if a.specs else []
    fake_specs = {"PTXCTS_FAKE_SPECS": a.specs} if a.specs else {}
    started = time.monotonic()
    runs = [([a.ptxcts, *specs, "run", "--no-assemble", "--catalog", a.catalog, "--runner", a.runner,
              "--reports", os.path.join(out, f"run{k}"), "--history", history],
             dict(os.environ, PTXCTS_FAKE_MODE="model", PTXCTS_FAKE_DEVICES=gpu(k), **fake_specs)) for k in range(a.runs)]
    for cmd, rc, text in start_all(runs):
        if rc != 0:
            fail(f"{' '.join(cmd)}: exit {rc}\n{text[-2000:]}")
    run_s = time.monotonic() - started
    reports = sorted(glob.glob(os.path.join(out, "run*", "*.json")))
    reports = [r for r in reports if json.load(open(r)).get("results") is not None]
    if len(reports) != a.runs:
        fail(f"{len(reports)} reports written, expected {a.runs}: {reports}")

    started = time.monotonic()
    imports = [([a.ptxcts, "history", "import", "--history", history,
                 *(reports if k % 2 == 0 else list(reversed(reports)))], dict(os.environ)) for k in range(a.importers)]
    for cmd, rc, text in start_all(imports):
        if rc != 0:
            fail(f"{' '.join(cmd)}: exit {rc}\n{text[-2000:]}")
    import_s = time.monotonic() - started

    # What the reports say, against what the history holds.
    expected = {}
    for r in reports:
        rep = json.load(open(r))
        expected[rep["run"]["gpu_uuid"]] = len(rep["results"])
    # runs.cases: the run's count; runs.outcomes: a code per case (history/history_schema).
    rows = sql_rows(history, "SELECT gpu_uuid, count(*), max(cases), max(length(outcomes)) FROM runs "
                             "WHERE kind = 'run' GROUP BY gpu_uuid ORDER BY gpu_uuid")
    held = {u: int(n) for u, n, _, _ in rows}
    if held != {u: 1 for u in expected}:
        fail(f"runs per GPU in the history: {held}; expected each of {sorted(expected)} once")
    held_cases = {u: int(c) for u, _, c, _ in rows}
    codes = {u: int(c) for u, _, _, c in rows}
    if held_cases != expected or codes != expected:
        fail(f"cases per run in the history: {held_cases} (outcome codes {codes}); the reports have {expected}")
    print(f"PASS: {a.kind}: {a.runs} runs at once recorded in {run_s:.1f} s, then {a.importers} imports of all "
          f"{len(reports)} reports at once in {import_s:.1f} s; the history holds {len(held)} runs, each once, "
          f"with {sum(held_cases.values()):,} cases as the reports have")
    if a.kind == "postgresql":
        subprocess.run(["psql", os.environ["POSTGRES_TEST_URL"], "-X", "-q", "-c", f"DROP DATABASE IF EXISTS {db}"],
                       capture_output=True, timeout=60)
    shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
