#!/usr/bin/env python3
"""The chaos soak: `ptxcts run` on the fake device runner while faults strike at random, seeded points.

Each *episode* is one run of the whole suite to its end: a first `ptxcts run`, and `ptxcts run --resume`
as often as a fault cut it short. Faults of two families strike it, chosen from the seed:

  the device's (the fake runner's PTXCTS_FAKE_CHAOS, support/fake_chaos.hpp; cases drawn by a hash of
  the seed and the case, so the same cases are hit again when a batch is run again one launch at a time
  or a run resumes):
    crash    the runner dies in the launch           -> that case `crash`
    hang     the runner goes silent in the launch    -> that case `timeout`
    chatty   the runner prints "loading" forever     -> that case `timeout` (the launch's limit, not the
             in the launch                               idle watchdog, must end it); however many strike
                                                         a line, no other case changes (docs/running.md:
                                                         only stalls loading modules abandon a line)
    garbage  the launch's record is random bytes     -> that case `error` (a broken protocol, not a crash:
                                                        "device runner broke the protocol at results record
                                                        N ..."); the reading of its line's results goes on
                                                        at the next whole record, so no other case changes
    noise    junk lines on stdout, then the launch   -> that case as undisturbed, or `error`
  These are what the device did: the report records them. So the report must name exactly the cases
  hit as above, and every other case must equal the undisturbed run's, field for field; a claim that
  checks none of the cases hit must equal its undisturbed verdict and evidence (one that checks one may
  change: its evidence counts the crash).

  the host's (faults a run must recover from):
    sigkill       SIGKILL of `ptxcts run` at a random moment (or, drawn instead, by the runner in a
                  random launch, as a power cut); the run is resumed with --resume
    disk-reports  the reports folder (journal and reports) on a full disk: a tmpfs of a random small
                  size (unshare -rm); the run must stop with one clear line, exit 2, and its journal,
                  copied back to a disk with space, resumes
    disk-tmp      $TMPDIR (the run's scratch: job and result files) on a full disk likewise; what the soak's
                  $TMPDIR holds (a folder a killed run left, for this run to sweep) is copied in first and
                  what the tmpfs holds then copied back, so that each run sees the $TMPDIR the run before
                  it left, as on one disk
  After these the finished report must equal the undisturbed run's as a whole (but date, commit and
  timing), case for case and claim for claim, together with the device's faults of the episode.

  the surfaces' (issue 40), each an episode of its own (class Surfaces):
    task-killed      a fleet's array task killed with its node: the merge lists it missing and writes the
                     page; resumed, the whole fleet merges as undisturbed
    task-unreadable  a task's folder the merging user cannot read: named (exit 2), the rest merged
    task-garbled     what a dead task left, garbled (report cut short, log or status random bytes, a FIFO,
                     a folder, too large): named, the rest merged, never a hang
    cases-list       `run --cases @LIST` with a list that names nothing: refused, no report touched
    expectations     `run --expectations FILE` garbled or hostile: refused in one line naming it, or (another
                     GPU's file) used: the report as undisturbed
    shared-reports   two runs into one reports folder at once (to their end, or killed): each ends well or
                     is refused clearly; --resume finishes; the report as undisturbed

Always: nothing may be left running (no process carrying the soak's marker in its environment, or in
one of its sessions, alive 2 s after each `ptxcts` ends) and nothing on disk (the soak's own $TMPDIR,
given to every child: nothing new in it after a `ptxcts` that ended on its own, whatever its exit
status; only a killed one may leave its scratch there, for the next run to sweep; empty after each
episode). A `ptxcts` that does not end within its limit is killed and counted as hung.

The summary (one screen): faults injected and survived by kind, episodes, invocations, reports equal,
processes and bytes left, and every finding. Exit 0 when every fault was survived and nothing was
left; 1 otherwise; 77 when it cannot run here (no catalog, no ptxas for the small suite's catalog).
Usage: harness/tests/chaos/README.md.
"""
import argparse
import copy
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

DEVICE_KINDS = ["crash", "hang", "chatty", "garbage", "noise"]
HOST_KINDS = ["sigkill", "disk-reports", "disk-tmp"]
SURFACE_KINDS = ["task-killed", "task-unreadable", "task-garbled", "cases-list", "expectations", "shared-reports"]
KINDS = DEVICE_KINDS + HOST_KINDS + SURFACE_KINDS
EXPECTED_STATUS = {"crash": {"crash"}, "hang": {"timeout"}, "chatty": {"timeout"}, "garbage": {"error"}}
REPORT = "fake-gpu-sm_90-driver0.0-cuda13.0.json"
GRACE_S = 2.0  # how long children may outlive their ptxcts before they count as left running


def fnv1a(text):
    """The fake runner's hash (support/fake_chaos.hpp: Chaos::hash)."""
    h = 1469598103934665603
    for byte in text.encode():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def chaos_hits(chaos, labels):
    """{label: kind} that PTXCTS_FAKE_CHAOS=chaos strikes among `labels` (Chaos::at)."""
    seed, rate, kinds = chaos.split(":")
    kinds = kinds.split("+")
    hits = {}
    for label in labels:
        h = fnv1a(f"{seed}/{label}")
        if h % 1000000 < float(rate) * 1e6:
            hits[label] = kinds[(h // 1000000) % len(kinds)]
    return hits


def one_line(text, width=240):
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def normalized(report):
    """The report less what differs between two runs of the same suite: date, commit, timing."""
    r = json.loads(json.dumps(report))
    for key in ("date", "suite_commit"):
        r["run"].pop(key, None)
    r.pop("timing", None)
    return r


def small_specs(source, out):
    """The ldmatrix and movmatrix families alone (666 cases, 198 of them launched on the fake sm_90), so
    that a run takes a fraction of a second."""
    out.mkdir(parents=True)
    for name in ("diagnostics.yaml", "documents.yaml", "targets.yaml", "ldmatrix.yaml", "movmatrix.yaml"):
        shutil.copy(source / "specs" / name, out / name)
    shutil.copytree(source / "specs" / "expectations", out / "expectations")
    text = (source / "specs" / "cases.yaml").read_text()
    # Without wmma and mma: their cases and the mutant exemption that names their variants.
    cut = [text.find("  may_pass:"), text.find("\ncases:"), text.find("\nwmma:")]
    if min(cut) < 0:
        raise SystemExit("chaos_soak: specs/cases.yaml has changed shape (may_pass:, cases:, wmma:); update small_specs")
    (out / "cases.yaml").write_text(text[:cut[0]] + text[cut[1]:cut[2]] + "\n")


class Invocation:
    """One `ptxcts run`, with at most one host fault, watched to its end."""

    def __init__(self, soak, reports, resume, chaos, host_fault, rng):
        self.soak, self.reports, self.resume, self.chaos = soak, reports, resume, chaos
        self.fault, self.rng = host_fault, rng
        self.detail, self.struck, self.hung = "", False, False
        self.rc, self.output, self.wall = None, "", 0.0

    def argv(self, reports):
        s = self.soak
        argv = [s.ptxcts, "--specs", str(s.specs), "run", "--no-assemble", "--catalog", str(s.catalog),
                "--runner", s.runner, "--reports", str(reports), "-q"] + s.run_args
        return argv + (["--resume"] if self.resume else [])

    def env(self, tmpdir):
        env = dict(self.soak.env, TMPDIR=str(tmpdir))
        mode = "model"
        if self.fault == "sigkill" and self.detail.startswith("runner"):
            mode += f",killparent:{self.kill_launch}"
        env["PTXCTS_FAKE_MODE"] = mode
        if self.chaos:
            env["PTXCTS_FAKE_CHAOS"] = self.chaos
        return env

    def command(self):
        """argv and env: plain, or under `unshare -rm` with a small tmpfs for the reports or $TMPDIR."""
        s = self.soak
        if self.fault == "sigkill":
            if self.rng.random() < 0.3:
                self.kill_launch = self.rng.randrange(s.launches)
                self.detail = f"runner kills ptxcts in launch {self.kill_launch}"
            else:
                self.kill_at = self.rng.uniform(0.02, 0.9 * s.baseline_wall)
                self.detail = f"SIGKILL at {self.kill_at:.2f} s"
        if self.fault not in ("disk-reports", "disk-tmp"):
            return self.argv(self.reports), self.env(s.tmp)
        mount = s.work / f"mnt-{s.invocations}"
        mount.mkdir()
        self.reports.mkdir(exist_ok=True)
        # The folder the tmpfs stands for: its files are copied in first, and back after (full_disk.sh).
        keep = self.reports if self.fault == "disk-reports" else s.tmp
        used = pages_of(keep)
        if self.fault == "disk-reports":
            size = used + self.rng.randrange(4096, max(8192, int(0.8 * s.report_bytes)))
            self.detail = f"reports on a {size // 1024} KiB tmpfs"
            inner, env = self.argv(mount), self.env(s.tmp)
        else:
            size = used + self.rng.randrange(4096, 1 << 20)
            self.detail = f"$TMPDIR on a {size // 1024} KiB tmpfs" + (f" ({used // 1024} KiB of it left by the "
                                                                       f"run before)" if used else "")
            inner, env = self.argv(self.reports), self.env(mount)
        script = Path(__file__).with_name("full_disk.sh")
        return ["unshare", "-rm", "sh", str(script), str(size), str(mount), str(keep)] + inner, env

    def run(self):
        s = self.soak
        argv, env = self.command()
        log = s.work / "invocation.log"
        start = time.monotonic()
        with open(log, "wb") as out:
            proc = start_child(argv, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True, cwd=s.work, preexec_fn=no_core_dumps)
            s.sessions.add(proc.pid)
            killer = None
            if self.fault == "sigkill" and hasattr(self, "kill_at"):
                killer = threading.Timer(self.kill_at, lambda: self.kill(proc))
                killer.start()
            while proc.poll() is None:
                if time.monotonic() - start > s.limit():
                    self.hung = True
                    # ptxcts and its children; not full_disk.sh (proc), which copies the tmpfs back
                    s.kill_marked(spare=proc.pid if self.fault in ("disk-reports", "disk-tmp") else None)
                time.sleep(0.02)
            if killer:
                killer.cancel()
        self.wall = time.monotonic() - start
        self.rc = proc.returncode
        self.output = log.read_text(errors="replace")
        log.unlink()
        if self.fault in ("disk-reports", "disk-tmp"):
            (s.work / f"mnt-{s.invocations}").rmdir()  # the tmpfs went with its namespace
        return self

    def killed(self):
        """Ended by SIGKILL (the fault's, the runner's, or the soak's at the limit): it may leave its scratch."""
        return self.hung or self.rc in (-signal.SIGKILL, 128 + signal.SIGKILL)

    def kill(self, proc):
        if proc.poll() is None:
            self.struck = True
            proc.send_signal(signal.SIGKILL)  # not to a pid the main thread has reaped since


def start_child(argv, **kwargs):
    """Popen, waiting out a program being rebuilt under the soak (a long run beside a build)."""
    for _ in range(300):
        try:
            return subprocess.Popen(argv, **kwargs)
        except (PermissionError, OSError) as e:
            if e.errno not in (13, 26):  # EACCES, ETXTBSY: the linker is writing it
                raise
            time.sleep(1)
    return subprocess.Popen(argv, **kwargs)


def pages_of(folder):
    """What the files under `folder` take on a tmpfs: whole 4 KiB pages."""
    return sum(-(-os.lstat(os.path.join(d, f)).st_size // 4096) * 4096 for d, _, files in os.walk(folder) for f in files)


def no_core_dumps():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the crashes must leave no core files behind

# -- the new surfaces (issue 40): fleets, selections, expectations, a shared reports folder -------------
FLEET_TASKS = 3
TASK_WRAPPER = """#!/bin/sh
# ptxcts for the soak's array tasks (written by chaos_soak.py): the small suite's specs, catalog and
# runner, quoted whatever the paths hold (ptxcts-array.sbatch splits PTXCTS_RUN_ARGS on spaces).
command=$1
shift
exec "$SOAK_PTXCTS" --specs "$SOAK_SPECS" "$command" --no-assemble --catalog "$SOAK_CATALOG" \\
  --runner "$SOAK_RUNNER" "$@"
"""


class Ran:
    """One command the soak ran for a surface episode, watched to its end."""

    def __init__(self, rc, output, wall, hung, killed):
        self.rc, self.output, self.wall, self.hung, self.was_killed = rc, output, wall, hung, killed

    def killed(self):
        return self.hung or self.was_killed or self.rc in (-signal.SIGKILL, 128 + signal.SIGKILL)

    def last(self):
        return self.output.strip().splitlines()[-1] if self.output.strip() else "(nothing printed)"


class Surfaces:
    """The episodes of the surfaces added in issue 40, each a fault of its own kind (SURFACE_KINDS):
    what must come of it is in harness/tests/chaos/README.md."""

    def __init__(self, soak):
        self.soak = soak
        self.fleet = None  # the undisturbed fleet: its folder, and its merge's JSON

    # -- running things ---------------------------------------------------------------------------
    def start(self, argv, env=None, user=None):
        s = self.soak
        log = open(s.work / f"surface-{uuid.uuid4().hex[:8]}.log", "w+b")
        env = env or dict(s.env, TMPDIR=str(s.tmp), PTXCTS_FAKE_MODE="model")
        extra = {"user": 65534, "group": 65534, "extra_groups": []} if user else {}
        proc = start_child(argv, env=env, stdout=log, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, start_new_session=True, cwd=s.work, preexec_fn=no_core_dumps,
                           **extra)
        s.sessions.add(proc.pid)
        return proc, log, time.monotonic()

    def finish(self, started, kill_at=None):
        """Waits for a started command (SIGKILL to its session at kill_at seconds, if given): a Ran."""
        proc, log, start = started
        self.soak.invocations += 1
        hung = killed = False
        while proc.poll() is None:
            waited = time.monotonic() - start
            if kill_at is not None and waited >= kill_at and not killed:
                killed = True
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
            if waited > self.soak.limit():
                hung = True
                self.soak.kill_marked()
            time.sleep(0.01)
        log.seek(0)
        output = log.read().decode(errors="replace")
        log.close()
        os.unlink(log.name)
        return Ran(proc.returncode, output, time.monotonic() - start, hung, killed and proc.returncode == -signal.SIGKILL)

    def run(self, argv, env=None, user=None):
        return self.finish(self.start(argv, env, user))

    def ptxcts_run(self, reports, *more):
        s = self.soak
        return [s.ptxcts, "--specs", str(s.specs), "run", "--no-assemble", "--catalog", str(s.catalog), "--runner",
                s.runner, "--reports", str(reports), "-q"] + s.run_args + list(more)

    def checked(self, ran, where, findings):
        """Counts what a command left (processes; what one that ended on its own added to $TMPDIR)."""
        s = self.soak
        if ran.hung:
            findings.append(f"{where}: did not end within {s.limit():.0f} s (killed); last line: {ran.last()}")
        left = s.left_after(ran, where)
        return not ran.hung and not left

    # -- a fleet ----------------------------------------------------------------------------------
    def task_env(self, results, task, more_args=""):
        s = self.soak
        wrapper = s.work / "ptxcts-task.sh"
        if not wrapper.exists():
            wrapper.write_text(TASK_WRAPPER)
            wrapper.chmod(0o755)
        env = dict(s.env, TMPDIR=str(s.tmp), PTXCTS=str(wrapper), PTXCTS_RESULTS=str(results),
                   SLURM_ARRAY_TASK_ID=str(task), SLURM_ARRAY_JOB_ID="4242", PTXCTS_RUN_ARGS=f"-q {more_args}".strip(),
                   SOAK_PTXCTS=s.ptxcts, SOAK_SPECS=str(s.specs), SOAK_CATALOG=str(s.catalog), SOAK_RUNNER=s.runner,
                   PTXCTS_FAKE_MODE="model")
        env["PTXCTS_RUN_ARGS"] += " " + " ".join(s.run_args)  # --case-timeout 3 --batch 16: no spaces
        env.pop("PTXCTS_FAKE_CHAOS", None)
        return env

    def task(self, results, task, more_args=""):
        """harness/slurm/ptxcts-array.sbatch as Slurm would start array task `task`, not yet waited for."""
        script = Path(self.soak.args.source).resolve() / "harness" / "slurm" / "ptxcts-array.sbatch"
        return self.start(["bash", str(script)], env=self.task_env(results, task, more_args))

    def merge(self, results, out, user=None):
        s = self.soak
        return self.run([s.ptxcts, "merge", "--expect-tasks", str(FLEET_TASKS), "--out", str(out), str(results)],
                        user=user)

    def undisturbed_fleet(self, findings):
        """The fleet every fleet episode starts from (made once): FLEET_TASKS tasks run at once, merged."""
        if self.fleet:
            return self.fleet
        s = self.soak
        results = s.work / "fleet-undisturbed"
        shutil.rmtree(results, ignore_errors=True)
        results.mkdir()
        before = set(os.listdir(s.tmp))
        runs = [self.finish(t) for t in [self.task(results, k) for k in range(FLEET_TASKS)]]
        for k, ran in enumerate(runs):
            self.checked(ran, f"the undisturbed fleet's task {k}", findings)
            if ran.rc not in (0, 1):
                raise SystemExit(f"chaos_soak: the undisturbed fleet's task {k} failed (exit {ran.rc}):\n{ran.output}")
        s.left_by(runs[0], before, "the undisturbed fleet")
        merged = self.merge(results, s.work / "fleet-undisturbed-page")
        if merged.rc != 0:
            raise SystemExit(f"chaos_soak: the undisturbed fleet's merge exited {merged.rc}:\n{merged.output}")
        self.fleet = (results, json.loads((s.work / "fleet-undisturbed-page.json").read_text()))
        return self.fleet

    def fleet_as_expected(self, out, tasks_read, findings, where):
        """The merged page and JSON exist, and the JSON's columns of the tasks read are the undisturbed
        fleet's: the same rows, the same values."""
        page, data = Path(f"{out}.html"), Path(f"{out}.json")
        if not page.exists() or not data.exists():
            findings.append(f"{where}: the merge wrote no page ({page.name}: {page.exists()}, {data.name}: "
                            f"{data.exists()})")
            return None
        got, want = json.loads(data.read_text()), self.fleet[1]
        tasks = sorted(m["run"]["slurm_task"] for m in got["machines"])
        if tasks != sorted(str(t) for t in tasks_read):
            findings.append(f"{where}: the merge's columns are of tasks {tasks}, expected {sorted(tasks_read)}")
            return None
        column = {r["what"]: r["values"][0] for r in want["rows"]}
        wrong = [r["what"] for r in got["rows"] if column.get(r["what"]) is None or
                 any(v != column[r["what"]] for v in r["values"])]
        if wrong or len(got["rows"]) != len(want["rows"]):
            findings.append(f"{where}: {len(wrong)} rows differ from the undisturbed fleet's ({len(got['rows'])} "
                            f"rows, expected {len(want['rows'])}); first: {', '.join(wrong[:3])}")
            return None
        return got

    def fleet_copy(self, name):
        results = self.soak.work / name
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(self.fleet[0], results, symlinks=True)
        return results

    @staticmethod
    def task_folder(results, task):
        return next(p for p in results.iterdir() if p.name.endswith(f"-task{task}"))

    def task_killed(self, number, findings):
        """A task killed with its node (SIGKILL to its whole session) at a random moment: the merge lists it
        missing and writes the page; the task run again with --resume completes the fleet."""
        s, rng = self.soak, self.soak.rng
        self.undisturbed_fleet(findings)
        results = self.fleet_copy(f"fleet-{number}")
        victim = rng.randrange(FLEET_TASKS)
        shutil.rmtree(self.task_folder(results, victim))
        kill_at = rng.uniform(0.05, 0.6) * s.baseline_wall
        ran = self.finish(self.task(results, victim), kill_at=kill_at)
        ok = self.checked(ran, f"episode {number}, task {victim} killed at {kill_at:.2f} s", findings)
        # A kill after the run wrote its report (atomically) and before the script ended struck nothing the
        # merge can see: the task is there.
        struck = ran.was_killed and not any(p.name == REPORT for p in results.glob(f"*-task{victim}/*"))
        out = s.work / f"fleet-{number}-page"
        merged = self.merge(results, out)
        ok = self.checked(merged, f"episode {number}, the merge", findings) and ok
        if struck:
            said = f"missing: task {victim}"
            if merged.rc != 1 or said not in merged.output:
                findings.append(f"episode {number}: the merge of a fleet whose task {victim} was killed exited "
                                f"{merged.rc}, expected 1 and '{said}'; last line: {merged.last()}")
                ok = False
            got = self.fleet_as_expected(out, [k for k in range(FLEET_TASKS) if k != victim], findings,
                                         f"episode {number}, task {victim} killed")
            ok = ok and got is not None and [m["task"] for m in got["missing"]] == [str(victim)]
            # The task submitted again, resumed: it sweeps what the killed run left in $TMPDIR.
            before = set(os.listdir(s.tmp))
            again = self.finish(self.task(results, victim, "--resume"))
            ok = self.checked(again, f"episode {number}, task {victim} resumed", findings) and ok
            if again.rc not in (0, 1):
                findings.append(f"episode {number}: task {victim} resumed exited {again.rc}: {again.last()}")
                ok = False
            if s.left_by(again, before, f"episode {number}, task {victim} resumed"):
                ok = False
            merged = self.merge(results, out)
        if merged.rc != 0:
            findings.append(f"episode {number}: the whole fleet's merge exited {merged.rc}: {merged.last()}")
            ok = False
        ok = self.fleet_as_expected(out, range(FLEET_TASKS), findings, f"episode {number}, the whole fleet") \
            is not None and ok
        return struck, ok, f"task {victim} killed at {kill_at:.2f} s" + ("" if struck else " (had ended)")

    def task_unreadable(self, number, findings):
        """A task's folder the merging user may not read: named, the walk goes on, the page written."""
        s, rng = self.soak, self.soak.rng
        self.undisturbed_fleet(findings)
        results = self.fleet_copy(f"fleet-{number}")
        victim = rng.randrange(FLEET_TASKS)
        locked = self.task_folder(results, victim)
        out = s.work / f"fleet-{number}-out" / "fleet"
        out.parent.mkdir()
        as_root = os.geteuid() == 0
        if as_root:  # root reads every folder: the merge runs as nobody, who must reach the fleet
            for p in [s.root, s.work, out.parent]:
                p.chmod(0o777 if p == out.parent else 0o755)
        locked.chmod(0)
        try:
            merged = self.merge(results, out, user="nobody" if as_root else None)
        finally:
            locked.chmod(0o755)
        ok = self.checked(merged, f"episode {number}, the merge", findings)
        said = f"not read: {locked}: cannot read this folder"
        if merged.rc != 2 or said not in merged.output or "never started" in merged.output:
            findings.append(f"episode {number}: the merge with {locked.name} unreadable exited {merged.rc}, expected 2, "
                            f"'{said}' and no task 'never started'; last line: {merged.last()}")
            ok = False
        got = self.fleet_as_expected(out, [k for k in range(FLEET_TASKS) if k != victim], findings,
                                     f"episode {number}, {locked.name} unreadable")
        ok = ok and got is not None and [u["path"] for u in got["unread"]] == [str(locked)]
        return True, ok, f"{locked.name} unreadable" + (" (the merge as nobody)" if as_root else "")

    def task_garbled(self, number, findings):
        """What a dead task left, garbled: its report cut short, its log random bytes or a FIFO, its
        task.status random bytes (or too large), a FIFO or a folder. The merge names it, writes the page."""
        s, rng = self.soak, self.soak.rng
        self.undisturbed_fleet(findings)
        results = self.fleet_copy(f"fleet-{number}")
        victim = rng.randrange(FLEET_TASKS)
        folder = self.task_folder(results, victim)
        report = folder / REPORT
        how = rng.choice(["report cut", "log garbled", "log a FIFO", "status garbled", "status too large",
                          "status a FIFO", "status a folder"])
        expect_rc = 2 if how in ("report cut", "status too large", "status a FIFO", "status a folder") else 1
        if how == "report cut":
            data = report.read_bytes()
            report.write_bytes(data[:rng.randrange(1, len(data) - 1)])
        else:
            for p in folder.iterdir():
                if p.name.startswith(REPORT.removesuffix(".json")):
                    p.unlink()  # died before it wrote its reports
            status, log = folder / "task.status", folder / "run.log"
            head = status.read_text().split("exit ")[0]
            status.write_text(head + f"exit {rng.choice([1, 2, 134, 137])}\n")
            if how == "log garbled":
                log.write_bytes(os.urandom(rng.randrange(1, 65536)))
            elif how == "log a FIFO":
                log.unlink()
                os.mkfifo(log)
            elif how == "status garbled":
                status.write_bytes(head.encode() + os.urandom(rng.randrange(1, 4096)))
            elif how == "status too large":
                with open(status, "ab") as f:
                    f.truncate((2 << 20) + rng.randrange(4096))
            else:
                status.unlink()
                os.mkfifo(status) if how == "status a FIFO" else status.mkdir()
        out = s.work / f"fleet-{number}-page"
        merged = self.merge(results, out)
        ok = self.checked(merged, f"episode {number}, the merge", findings)
        said = f"missing: task {victim}"
        if merged.rc != expect_rc or said not in merged.output:
            findings.append(f"episode {number}: the merge with task {victim}'s {how} exited {merged.rc}, expected "
                            f"{expect_rc} and '{said}'; last line: {merged.last()}")
            ok = False
        got = self.fleet_as_expected(out, [k for k in range(FLEET_TASKS) if k != victim], findings,
                                     f"episode {number}, task {victim}'s {how}")
        ok = ok and got is not None and [m["task"] for m in got["missing"]] == [str(victim)]
        return True, ok, f"task {victim}'s {how}"

    # -- selections and expectations -------------------------------------------------------------------
    def reports_copy(self, number):
        reports = self.soak.work / f"episode-{number}"
        shutil.rmtree(reports, ignore_errors=True)
        shutil.copytree(self.soak.work / "baseline-reports", reports)
        return reports, {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in reports.iterdir()}

    def refused_clearly(self, ran, path, reports, kept, findings, where, names=None):
        """Exit 2, one error line naming `path` (or, for a list whose entries name no case, those entries:
        `--cases A, B: no case of the suite is named so`), and the reports folder as it was (no report
        overwritten, no journal begun)."""
        errors = [line for line in ran.output.splitlines() if line.startswith("error:")]
        ok = True
        named = errors and (str(path) in errors[0] or (names and all(n in errors[0] for n in names)))
        if ran.rc != 2 or len(errors) != 1 or not named:
            findings.append(f"{where}: exit {ran.rc}, expected 2 and one error naming {path.name}; said: "
                            f"{one_line(ran.output, 200)}")
            ok = False
        now = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in reports.iterdir()}
        if now != kept:
            changed = sorted(set(now) ^ set(kept) | {n for n in now if n in kept and now[n] != kept[n]})
            findings.append(f"{where}: the reports folder changed: {', '.join(changed[:4])}")
            ok = False
        return ok

    def hostile_file(self, path, how, rng):
        """A file (or what stands in its place) of a careless or hostile kind."""
        if how == "empty":
            path.write_text("")
        elif how == "comments only":
            path.write_text("# the failures of the last run: none\n\n# (nothing to run again)\n")
        elif how == "a folder":
            path.mkdir()
        elif how == "random bytes":
            path.write_bytes(bytes(b for b in os.urandom(rng.randrange(16, 8192)) if b not in b"*?[]{},"))
        elif how == "a FIFO":
            os.mkfifo(path)
        elif how == "over 256 MiB":
            with open(path, "wb") as f:
                f.truncate((256 << 20) + 1 + rng.randrange(1 << 20))  # sparse: no disk taken
        elif how == "nested 100000 deep":
            path.write_text("expectations: " + "[" * 100000 + "\n")
        elif how == "wrong shape":
            path.write_text("gpu: 5\ndriver: [1, 2]\nexpectations: {case: 3}\n")
        elif how == "missing":
            pass

    def cases_list(self, number, findings):
        """`ptxcts run --cases @LIST` with a list that names nothing (empty, comments only, a folder, random
        bytes, a FIFO, too large, absent, or names of no case): refused, no report touched."""
        s, rng = self.soak, self.soak.rng
        reports, kept = self.reports_copy(number)
        how = rng.choice(["empty", "comments only", "a folder", "random bytes", "a FIFO", "over 256 MiB", "missing",
                          "no such case"])
        path = s.work / f"cases-{number}.txt"
        names = ["ldmatrix_no_such_kernel/identity", "movmatrix_*/no-such-case"] if how == "no such case" else None
        if names:
            path.write_text("\n".join(names) + "\n")
        else:
            self.hostile_file(path, how, rng)
        ran = self.run(self.ptxcts_run(reports, "--cases", f"@{path}"))
        ok = self.checked(ran, f"episode {number}, --cases @LIST ({how})", findings)
        ok = self.refused_clearly(ran, path, reports, kept, findings, f"episode {number}, a case list ({how})",
                                  names) and ok
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
        return True, ok, f"a case list: {how}"

    def expectations(self, number, findings):
        """`ptxcts run --expectations FILE` with a garbled or hostile file: refused in one line naming it, no
        report touched; or, for another GPU's file, used: the report equal to the undisturbed one."""
        s, rng = self.soak, self.soak.rng
        reports, kept = self.reports_copy(number)
        how = rng.choice(["empty", "a folder", "random bytes", "a FIFO", "over 256 MiB", "nested 100000 deep",
                          "wrong shape", "missing", "another GPU's"])
        path = s.work / f"expectations-{number}.yaml"
        if how == "another GPU's":
            path.write_text('gpu: "NVIDIA H100*"\ndriver: "580.*"\nexpectations:\n  - case: "ldmatrix*/*"\n'
                            '    outcome: fail\n    reason: "another GPU\'s"\n    link: "https://example.com/1"\n')
        elif how == "a folder":
            path.mkdir()
            self.hostile_file(path / "garbled.yaml", "random bytes", rng)
        else:
            self.hostile_file(path, how, rng)
        ran = self.run(self.ptxcts_run(reports, "--expectations", str(path)))
        where = f"episode {number}, --expectations ({how})"
        ok = self.checked(ran, where, findings)
        # An empty file (a FIFO no program writes reads as one) may be refused, or used as no entries.
        used = how == "another GPU's" or (how in ("empty", "a FIFO") and ran.rc in (0, 1))
        if used:
            if ran.rc not in (0, 1):
                findings.append(f"{where}: exit {ran.rc}: {ran.last()}")
                ok = False
            got = normalized(json.loads((reports / REPORT).read_text()))
            if got != s.expected:
                findings.append(f"{where}: the report differs from the undisturbed one")
                ok = False
        else:
            ok = self.refused_clearly(ran, path / "garbled.yaml" if how == "a folder" else path, reports, kept,
                                      findings, where) and ok
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
        return True, ok, f"expectations: {how}"

    # -- two runs, one reports folder ---------------------------------------------------------------
    def shared_reports(self, number, findings):
        """Two `ptxcts run` into one reports folder at once: both to their end, or both killed at one moment
        (a job's time limit) and then resumed. Each run ends well or is refused in one clear line; --resume
        finishes the journal they left; the report equals the undisturbed one."""
        s, rng = self.soak, self.soak.rng
        reports = s.work / f"episode-{number}"
        how = rng.choice(["both to their end", "both killed", "one killed"])
        kill_at = rng.uniform(0.1, 0.8) * s.baseline_wall
        started = [self.start(self.ptxcts_run(reports)) for _ in range(2)]
        runs = [self.finish(started[0], kill_at if how != "both to their end" else None),
                self.finish(started[1], kill_at if how == "both killed" else None)]
        ok, struck = True, how == "both to their end" or any(r.was_killed for r in runs)
        for k, ran in enumerate(runs):
            where = f"episode {number}, run {k + 1} of two at once ({how})"
            ok = self.checked(ran, where, findings) and ok
            errors = [line for line in ran.output.splitlines() if line.startswith("error:")]
            if not ran.killed() and ran.rc not in (0, 1) and not (ran.rc == 2 and len(errors) == 1):
                findings.append(f"{where}: exit {ran.rc} without one clear error: {one_line(ran.output, 200)}")
                ok = False
        for attempt in range(3):
            # After a kill, at least one --resume: it must go on from (or past) what the two left, and
            # sweeps the scratch of a killed run (only the next run's start does).
            if (reports / REPORT).exists() and not any(reports.glob("*.journal.jsonl")) and \
                    (attempt or how == "both to their end"):
                break
            ran = self.run(self.ptxcts_run(reports, "--resume"))
            ok = self.checked(ran, f"episode {number}, --resume {attempt + 1}", findings) and ok
            if ran.rc not in (0, 1):
                findings.append(f"episode {number}: --resume after two runs at once ({how}) exited {ran.rc}: "
                                f"{ran.last()}")
                ok = False
                break
        if not (reports / REPORT).exists() or normalized(json.loads((reports / REPORT).read_text())) != s.expected:
            findings.append(f"episode {number}: after two runs at once ({how}) the report is "
                            f"{'absent' if not (reports / REPORT).exists() else 'not the undisturbed one'}")
            ok = False
        shutil.rmtree(reports, ignore_errors=True)
        return struck, ok, f"two runs at once, {how}" + (f" at {kill_at:.2f} s" if how != "both to their end" else "")

    def episode(self, number, kind):
        """One episode of a surface kind: (struck, survived) counted as the soak counts its faults."""
        s = self.soak
        s.episodes += 1
        began = time.monotonic()
        findings = []
        struck, ok, detail = getattr(self, kind.replace("-", "_"))(number, findings)
        for p in s.work.glob(f"fleet-{number}*"):
            shutil.rmtree(p, ignore_errors=True)
        shutil.rmtree(s.work / f"episode-{number}", ignore_errors=True)
        clean = not s.sweep_tmp(f"episode {number}")
        s.findings += findings
        s.equal += ok and not findings
        if struck:
            s.injected[kind] += 1
            s.survived[kind] += ok and clean and not findings
        if s.args.verbose:
            print(f"episode {number}: {kind}: {detail}: survived {ok and clean and not findings}; "
                  f"{time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)


class Soak:
    def __init__(self, args):
        self.args = args
        self.ptxcts, self.runner = str(Path(args.ptxcts).resolve()), str(Path(args.runner).resolve())
        self.rng = random.Random(args.seed)
        self.root = Path(tempfile.mkdtemp(prefix="ptxcts-chaos-"))
        self.work, self.tmp = self.root / "work", self.root / "tmp"
        self.work.mkdir()
        self.tmp.mkdir()
        self.marker = f"chaos-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.env = dict(os.environ, PTXCTS_CHAOS_SOAK=self.marker, PTXCTS_FAKE_CHAOS_LOG=str(self.work / "chaos.log"))
        self.env.pop("PTXCTS_FAKE_CHAOS", None)
        self.sessions = set()
        self.injected = {k: 0 for k in KINDS}
        self.survived = {k: 0 for k in KINDS}
        self.findings = []
        self.episodes = self.invocations = self.equal = 0
        self.processes_left = self.bytes_left = self.entries_left = 0
        self.discarded = 0  # episodes under which the programs were rebuilt
        self.repaired = 0  # journals whose last record a full disk or a kill cut, cut off by --resume
        self.run_args = ["--case-timeout", f"{args.case_timeout:g}", "--batch", str(args.batch)] + list(args.run_arg)
        self.baseline_wall = 60.0  # until the undisturbed run has measured it
        self.unshare = self.can_unshare()
        self.surfaces = Surfaces(self)

    # -- setting up -------------------------------------------------------------------------------
    def prepare(self):
        source = Path(self.args.source).resolve()
        if self.args.suite == "full":
            self.specs, self.catalog = source / "specs", Path(self.args.catalog).resolve()
            if not (self.catalog / "manifest.json").exists():
                return f"no catalog at {self.catalog} (the build makes it)"
        else:
            keep = Path(self.args.small_catalog).resolve() if self.args.small_catalog else self.work
            self.specs, self.catalog = keep / "specs", keep / "catalog"
            shutil.rmtree(self.specs, ignore_errors=True)
            small_specs(source, self.specs)
            made = start_child([self.ptxcts, "--specs", str(self.specs), "catalog", "--out", str(self.catalog),
                                "--targets", "sm_90", "--no-sass"], env=dict(self.env, TMPDIR=str(self.tmp)),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            said = made.communicate()[0]
            if made.returncode != 0:
                return f"cannot build the small suite's catalog (needs ptxas): {said}".strip()
            self.sweep_tmp("building the catalog")
        self.env["PTXCTS_FAKE_SPECS"] = str(self.specs)
        return None

    def can_unshare(self):
        r = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs '{self.work}'"],
                           capture_output=True)
        return r.returncode == 0

    def baseline(self):
        reports = self.work / "baseline"
        inv = Invocation(self, reports, False, None, None, self.rng).run()
        self.invocations += 1
        if inv.rc not in (0, 1) or not (reports / REPORT).exists():
            raise SystemExit(f"chaos_soak: the undisturbed run failed (exit {inv.rc}):\n{inv.output}")
        self.baseline_wall = inv.wall
        self.report_bytes = sum(f.stat().st_size for f in reports.iterdir())
        self.expected = normalized(json.loads((reports / REPORT).read_text()))
        self.labels = [f"{r['kernel']}/{r['case']}" for r in self.expected["results"]
                       if r["status"] not in ("not-supported", "skipped")]
        self.launches = len(self.labels)
        self.isolated = {f"{r['kernel']}/{r['case']}" for r in self.expected["results"] if r["fault_case"]}
        shutil.rmtree(self.work / "baseline-reports", ignore_errors=True)
        reports.rename(self.work / "baseline-reports")  # what the selections' and expectations' episodes start from
        self.left_after(inv, "the undisturbed run")
        self.sweep_tmp("the undisturbed run")

    def limit(self):
        """How long one ptxcts may take: a generous multiple of the undisturbed run, and two case limits per
        hang the runner has begun (a hang in a batch costs the batch's limit, then its own alone)."""
        log = self.work / "chaos.log"
        hangs = sum(1 for line in log.read_text().splitlines() if line.split()[0] in ("hang", "chatty")) \
            if log.exists() else 0
        return self.args.run_limit + 5 * self.baseline_wall + hangs * 2.5 * self.args.case_timeout

    # -- an episode -------------------------------------------------------------------------------
    def chaos_for(self, kinds, each=(1, 2), lines=None):
        """A PTXCTS_FAKE_CHAOS value under which every kind of `kinds` strikes each[0] to each[1] cases;
        `lines` may ask a kind to strike only in the fault line ("fault": isolated cases, a launch to
        a runner) or only in the main line ("main": batches)."""
        rate = 1.5 * len(kinds) / max(self.launches, 1)
        lines = lines or {}
        for _ in range(20000):
            chaos = f"{self.rng.randrange(1 << 31)}:{rate:.6f}:{'+'.join(kinds)}"
            hits = chaos_hits(chaos, self.labels)
            counts = list(hits.values())
            if all(each[0] <= counts.count(k) <= each[1] for k in kinds) and \
                    all((label in self.isolated) == (lines[k] == "fault") for label, k in hits.items() if k in lines):
                return chaos
        raise SystemExit(f"chaos_soak: no chaos seed strikes {'+'.join(kinds)} as asked")

    def plan(self):
        """The episode's faults: a chaos rate and kinds for the device, a host fault per invocation."""
        kinds = [k for k in self.args.kinds if k in DEVICE_KINDS]
        device = self.rng.sample(kinds, self.rng.randint(1, len(kinds))) if kinds and self.rng.random() < 0.7 else []
        per_case = self.rng.uniform(0.5, 3.0) / max(self.launches, 1)  # about one to three faults a run
        chaos = f"{self.rng.randrange(1 << 31)}:{per_case:.6f}:{'+'.join(device)}" if device else None
        host = [k for k in self.args.kinds if k in HOST_KINDS and (k == "sigkill" or self.unshare)]
        faults = [self.rng.choice(host) for _ in range(self.rng.randint(0, 2))] if host else []
        return chaos, faults

    def episode(self, number, chaos=None, faults=None):
        if chaos is None and faults is None:
            chaos, faults = self.plan()
        self.episodes += 1
        began = time.monotonic()
        reports = self.work / f"episode-{number}"
        log = self.work / "chaos.log"
        if log.exists():
            log.unlink()
        # A fault is survived when it did what it should (its invocation ended as it says, its case has the
        # outcome it says) and its episode lost nothing: report as expected, nothing left running or on disk.
        resume, clean, struck, transcript = False, True, [], []
        for attempt in range(len(faults) + 3):
            fault = faults[attempt] if attempt < len(faults) else None
            before = set(os.listdir(self.tmp))
            inv = Invocation(self, reports, resume, chaos, fault, self.rng).run()
            self.invocations += 1
            where = f"episode {number}, run {attempt + 1} ({inv.detail or 'no host fault'})"
            ok = self.judge_invocation(inv, where)
            clean = clean and ok
            transcript.append(f"== {where}: exit {inv.rc}, {inv.wall:.2f} s\n{inv.output}")
            self.repaired += "the last record was cut short" in inv.output  # run/journal's line on stderr
            if fault and inv.struck:
                struck.append((fault, ok))
            if self.left_after(inv, where) or self.left_by(inv, before, where):
                clean = False
            if (reports / REPORT).exists() and not any(reports.glob("*.journal.jsonl")) and inv.rc in (0, 1):
                break
            resume = True
        else:
            self.findings.append(f"episode {number}: no finished report after {len(faults) + 3} runs")
            clean = False
        equal, device_faults = self.compare(reports, number, log, chaos)
        self.equal += equal
        if self.sweep_tmp(f"episode {number}"):
            clean = False
        for kind, ok in struck + device_faults:
            self.injected[kind] += 1
            self.survived[kind] += ok and clean and equal
        if self.args.keep_failed and not (equal and clean):
            kept = Path(self.args.keep_failed) / f"episode-{number}"
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(reports, kept) if reports.exists() else kept.mkdir(parents=True)
            (kept / "transcript.txt").write_text(f"chaos {chaos}, host faults {faults}\n" + "\n".join(transcript))
            if log.exists():
                shutil.copy(log, kept / "chaos.log")
        shutil.rmtree(reports, ignore_errors=True)
        if self.args.verbose:
            print(f"episode {number}: device {chaos or '-'}, host {','.join(faults) or '-'}: "
                  f"{', '.join(f'{k} {ok}' for k, ok in struck + device_faults) or 'nothing struck'}; "
                  f"equal {equal}, clean {clean}; {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
        return equal

    def judge_invocation(self, inv, where):
        """True where the invocation ended as its fault says it should."""
        last = inv.output.strip().splitlines()[-1] if inv.output.strip() else "(nothing printed)"
        if inv.fault == "sigkill" and not inv.struck and inv.rc == -signal.SIGKILL:
            inv.struck = True  # the runner's kill: ptxcts died by SIGKILL in the drawn launch
        if inv.fault in ("disk-reports", "disk-tmp") and inv.rc not in (0, 1):
            inv.struck = True  # the disk filled: the run could not finish
        if inv.hung:
            self.findings.append(f"{where}: ptxcts did not end within {self.limit():.0f} s (killed); last line: {last}")
            return False
        if inv.fault == "sigkill" and inv.rc != -signal.SIGKILL:
            # A live process sent SIGKILL dies by it: this one had ended (a zombie not yet reaped) when the
            # soak's timer fired at the end of its run, so the fault never struck (seed 7, episode 45)
            inv.struck = False
        if inv.struck and inv.fault == "sigkill":
            return True
        if inv.struck:
            full = [l for l in inv.output.splitlines() if "No space left" in l or "full" in l.lower()]
            if inv.rc != 2 or not full:
                self.findings.append(f"{where}: the full disk gave exit {inv.rc} without naming it; last line: {last}")
                return False
            return True
        if inv.rc not in (0, 1):
            self.findings.append(f"{where}: ptxcts exit {inv.rc}; last line: {last}")
            return False
        return True

    def compare(self, reports, number, log, chaos):
        """(the report as expected, [(kind, its case as it should be)] for each device fault)."""
        hit = {}
        if log.exists():
            for line in log.read_text().splitlines():
                kind, label = line.split(" ", 1)
                hit[label] = kind
        if chaos and any(chaos_hits(chaos, [label]).get(label) != kind for label, kind in hit.items()):
            self.findings.append(f"episode {number}: the runner's chaos log disagrees with the hash (fake_chaos.hpp)")
        path = reports / REPORT
        if not path.exists():
            self.findings.append(f"episode {number}: no report")
            return False, [(kind, False) for kind in hit.values()]
        got = normalized(json.loads(path.read_text()))
        expected = {f"{r['kernel']}/{r['case']}": r for r in self.expected["results"]}
        seen, wrong_cases, faults_ok = set(), [], {label: False for label in hit}
        # No case is abandoned: docs/running.md abandons a line only after two stalls loading modules
        # (at the limit on a batch, before its `batch` line), which no fault here causes; a launch that
        # never ends, talking (chatty) or not (hang), is its own case's timeout (2a80d56).
        # A garbled record is its own case's error alone: the reading of its line's results goes on at
        # the next whole record (8ef301f; before, every later case of the line was an error).
        for r in got["results"]:
            label = f"{r['kernel']}/{r['case']}"
            seen.add(label)
            if label in hit:
                kind = hit[label]
                allowed = EXPECTED_STATUS.get(kind, {expected[label]["status"], "error"})
                faults_ok[label] = r["status"] in allowed and (
                    kind != "noise" or r["status"] == "error" or r == expected[label]) and (
                    kind != "garbage" or r["reason"].startswith("device runner broke the protocol"))
                if not faults_ok[label]:
                    wrong_cases.append(f"{label} ({kind}): {r['status']}, expected {'/'.join(sorted(allowed))}:"
                                       f" {one_line(r['reason'], 100)}")
            elif r != expected.get(label):
                was = expected.get(label, {}).get("status", "(absent)")
                wrong_cases.append(f"{label}: {was} -> {r['status']}: {one_line(r['reason'], 100)}")
        wrong_cases += [f"{label}: lost" for label in expected if label not in seen]
        claims_ok = self.compare_claims(got, set(hit), number)
        if not hit:  # nothing the device did: the whole report is the undisturbed one
            rest_ok = {k: v for k, v in got.items() if k not in ("results", "claims")} == \
                      {k: v for k, v in self.expected.items() if k not in ("results", "claims")}
            if not rest_ok:
                self.findings.append(f"episode {number}: summary or totals differ from the undisturbed run's")
            claims_ok = claims_ok and rest_ok
        if wrong_cases:
            self.findings.append(f"episode {number}: {len(wrong_cases)} cases differ; first: " +
                                 "; ".join(wrong_cases[:3]))
        return not wrong_cases and claims_ok, [(kind, faults_ok[label]) for label, kind in hit.items()]

    def line_of(self, label):
        return "fault" if label in self.isolated else "main"

    def compare_claims(self, got, hit, number):
        before = {c["id"]: c for c in self.expected["claims"]}
        wrong = [c["id"] for c in got["claims"]
                 if c != before.get(c["id"]) and not hit.intersection(c.get("checked", []))]
        wrong += [i for i in before if i not in {c["id"] for c in got["claims"]}]
        if wrong:
            self.findings.append(f"episode {number}: claims differ: {', '.join(wrong[:5])}")
        return not wrong

    # -- what is left -----------------------------------------------------------------------------
    def marked(self):
        """Live processes of the soak's: its marker in their environment, or in one of its sessions."""
        found = []
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat[stat.rfind(")") + 2:].split()
                if fields[0] == "Z":
                    continue
                mine = int(fields[3]) in self.sessions
                if not mine:
                    mine = f"PTXCTS_CHAOS_SOAK={self.marker}".encode() in Path(f"/proc/{pid}/environ").read_bytes()
                if mine and int(pid) != os.getpid():
                    found.append((int(pid), Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
                        errors="replace").strip()))
            except (OSError, IndexError, ValueError):
                continue
        return found

    def kill_marked(self, spare=None):
        for pid, _ in self.marked():
            if pid == spare:
                continue
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def left_after(self, inv, where):
        """Counts (and ends) what outlived an invocation by more than GRACE_S; True if anything did."""
        deadline = time.monotonic() + GRACE_S
        while (left := self.marked()) and time.monotonic() < deadline:
            time.sleep(0.05)
        if left:
            self.processes_left += len(left)
            self.findings.append(f"{where}: {len(left)} processes left running, e.g. {left[0][1][:120]}")
            self.kill_marked()
        return bool(left)

    def left_by(self, inv, before, where):
        """Counts (and removes) what a ptxcts that ended on its own (not killed) added to $TMPDIR: its own
        leak, which the next run's sweep would hide (its owner is dead). True if it added anything."""
        new = sorted(set(os.listdir(self.tmp)) - before)
        if inv.killed() or not new:
            return False
        self.sweep_tmp(f"{where}, exit {inv.rc}", new)
        return True

    def sweep_tmp(self, where, names=None):
        """Counts (and removes) what was left in the children's $TMPDIR (or those `names` of it); True if
        anything was."""
        entries, size = 0, 0
        names = sorted(os.listdir(self.tmp)) if names is None else names
        for top in (self.tmp / n for n in names):
            entries += 1
            if top.is_symlink() or not top.is_dir():
                size += os.lstat(top).st_size
                top.unlink()
                continue
            for dirpath, dirs, files in os.walk(top):
                entries += len(dirs) + len(files)
                size += sum(os.lstat(os.path.join(dirpath, f)).st_size for f in files)
            shutil.rmtree(top)
        if entries:
            self.entries_left += entries
            self.bytes_left += size
            self.findings.append(f"{where}: {entries} files and folders ({size:,} bytes) left in $TMPDIR"
                                 f"{': ' + ', '.join(names[:3]) if names else ''}")
        return entries > 0

    # -- the whole ---------------------------------------------------------------------------------
    def tour(self):
        """Every kind asked for, once, in few episodes and each fault's own: the device's that end a launch
        at once (each striking one case), the hangs (one case each: a silent one in a batch of the main
        line, which costs two case limits, the batch's and its own; a chatty one alone in the fault
        line, one limit), then each host fault alone."""
        device = [k for k in self.args.kinds if k in DEVICE_KINDS]
        groups = [[k for k in device if k not in ("hang", "chatty")], [k for k in device if k in ("hang", "chatty")]]
        host = [k for k in self.args.kinds if k in HOST_KINDS and (k == "sigkill" or self.unshare)]
        lines = {"hang": "main", "chatty": "fault"}
        return [(self.chaos_for(g, (1, 1), lines), [], None) for g in groups if g] + \
            [(None, [k], None) for k in host] + [(None, None, k) for k in self.args.kinds if k in SURFACE_KINDS]

    def schedule(self):
        """The tour first (so that a short run meets every kind), then drawn episodes."""
        start = time.monotonic()
        number = 0
        for chaos, faults, surface in self.tour():
            number += 1
            self.guarded(number, chaos, faults, surface)
        surfaces = [k for k in self.args.kinds if k in SURFACE_KINDS]
        others = [k for k in self.args.kinds if k not in SURFACE_KINDS]
        while (self.args.episodes and number < self.args.episodes) or \
                (self.args.minutes and time.monotonic() - start < 60 * self.args.minutes):
            number += 1
            if surfaces and (not others or self.rng.random() < 0.3):
                self.guarded(number, surface=self.rng.choice(surfaces))
            else:
                self.guarded(number)

    COUNTS = ("injected", "survived", "findings", "episodes", "invocations", "equal", "processes_left",
              "bytes_left", "entries_left", "repaired")

    def stamp(self):
        return [(os.stat(p).st_mtime_ns, os.stat(p).st_size) for p in (self.ptxcts, self.runner)]

    def guarded(self, number, chaos=None, faults=None, surface=None):
        """An episode, discarded if the programs were rebuilt under it (a long run beside a build: a new
        commit makes a catalog stale); then the suite's catalog and the undisturbed run are made again."""
        before, counts = self.stamp(), {k: copy.deepcopy(getattr(self, k)) for k in self.COUNTS}
        if surface:
            self.surfaces.episode(number, surface)
        else:
            self.episode(number, chaos, faults)
        if self.stamp() == before:
            return
        self.surfaces.fleet = None  # made again with the new programs
        for k, v in counts.items():
            setattr(self, k, v)
        self.discarded += 1
        time.sleep(5)  # let the build finish linking
        while self.stamp() != (before := self.stamp()) or self.prepare():
            time.sleep(5)
        self.baseline()

    def summary(self, wall):
        a = self.args
        lines = [f"chaos soak: seed {a.seed}, suite {a.suite} ({len(self.expected['results'])} cases), "
                 f"{wall:.1f} s; run args: {' '.join(self.run_args) or '(none)'}",
                 f"{'fault':16}{'injected':>9}{'survived':>9}"]
        for k in KINDS:
            note = "" if k not in ("disk-reports", "disk-tmp") or self.unshare else "  (not tried: unshare -rm not allowed)"
            lines.append(f"{k:16}{self.injected[k]:9}{self.survived[k]:9}{note}")
        total_i, total_s = sum(self.injected.values()), sum(self.survived.values())
        lines.append(f"{'all':16}{total_i:9}{total_s:9}")
        lines.append(f"runs: {self.episodes} episodes ({self.invocations} ptxcts runs and merges, the undisturbed one "
                     f"included); "
                     f"reports equal: {self.equal} of {self.episodes}")
        if self.discarded:
            lines.append(f"episodes discarded (ptxcts or the runner rebuilt under them), the suite made again: "
                         f"{self.discarded}")
        if self.repaired:
            lines.append(f"journals whose last record was cut short, cut off by --resume (its case run again): "
                         f"{self.repaired}")
        lines.append(f"processes left: {self.processes_left}; left in $TMPDIR: {self.bytes_left:,} bytes "
                     f"({self.entries_left} files and folders)")
        for f in self.findings[:a.max_findings]:
            lines.append(f"  FINDING {one_line(f)}")
        if len(self.findings) > a.max_findings:
            lines.append(f"  ... and {len(self.findings) - a.max_findings} more findings")
        ok = not self.findings and total_i == total_s and self.equal == self.episodes
        lines.append("PASS: every fault yielded what it should, nothing left running or on disk" if ok else "FAIL")
        return "\n".join(lines), ok

    def close(self):
        self.kill_marked()
        shutil.rmtree(self.root, ignore_errors=True)


def main():
    here = Path(__file__).resolve()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ptxcts", required=True)
    p.add_argument("--runner", required=True, help="the fake device runner")
    p.add_argument("--source", default=str(here.parents[3]), help="the source tree (its specs/)")
    p.add_argument("--catalog", help="the catalog of the full suite (--suite full)")
    p.add_argument("--suite", choices=["small", "full"], default="small",
                   help="small: ldmatrix and movmatrix (1,134 cases, a catalog of its own); full: every case")
    p.add_argument("--small-catalog", help="a folder to keep the small suite's specs and catalog in between soaks "
                                          "(brought up to date at each start: 0.3 s instead of several)")
    p.add_argument("--prepare-only", action="store_true", help="make the small suite's catalog, and stop")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=0, help="go on drawing episodes this long")
    p.add_argument("--episodes", type=int, default=0,
                   help="this many episodes at least (the tour, which meets every kind, then drawn ones)")
    p.add_argument("--kinds", default=",".join(KINDS), help="the faults to inject, comma-separated")
    p.add_argument("--case-timeout", type=float, default=3,
                   help="the run's limit per launch, in seconds (ptxcts run's hidden --case-timeout); at least 3: "
                        "it is also the idle watchdog, and a standby runner says it is waiting only every 2 s")
    p.add_argument("--batch", type=int, default=16, help="launches per batch (ptxcts run --batch)")
    p.add_argument("--run-limit", type=float, default=10,
                   help="a ptxcts that has not ended after this many seconds, plus five undisturbed runs and two "
                        "case limits per hang, is hung: killed, and a finding")
    p.add_argument("--run-arg", action="append", default=[], help="an argument for every ptxcts run (repeatable)")
    p.add_argument("--max-findings", type=int, default=12)
    p.add_argument("--keep-failed", help="a folder to keep each failed episode's reports, outputs and chaos log in")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per episode on stderr")
    p.add_argument("--summary", help="also write the summary to this file")
    a = p.parse_args()
    a.kinds = [k for k in a.kinds.split(",") if k]
    if unknown := [k for k in a.kinds if k not in KINDS]:
        p.error(f"unknown fault {unknown[0]}; expected some of {', '.join(KINDS)}")
    soak = Soak(a)
    start = time.monotonic()
    try:
        if why := soak.prepare():
            print(f"chaos_soak: skipped: {why}")
            return 77
        if a.prepare_only:
            print(f"chaos_soak: the small suite's catalog is up to date in {soak.catalog}")
            return 0
        soak.baseline()
        if a.verbose:
            print(f"ready at {time.monotonic() - start:.1f} s (the undisturbed run {soak.baseline_wall:.2f} s)",
                  file=sys.stderr, flush=True)
        soak.schedule()
        text, ok = soak.summary(time.monotonic() - start)
    finally:
        soak.close()
    print(text)
    if a.summary:
        Path(a.summary).write_text(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
