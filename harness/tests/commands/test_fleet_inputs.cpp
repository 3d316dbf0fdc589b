// What a fleet's merge is given where fleets fail (issue 40): a task's folder the merging user may not
// enter, and what a task that died left behind (a report cut short, a garbled task.status or run.log,
// a FIFO where its log should be). Each is named with why and what was expected, the walk goes on,
// the readable tasks are read, and `ptxcts merge` still writes the page (exit 2: incomplete).
// The expected texts are those harness/slurm/ptxcts-array.sbatch and docs/running.md give.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "commands/fleet_inputs.hpp"
#include "report/run/report_json.hpp"
#include "support/temp_dir.hpp"
#include "util/file_text.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

// A finished task's folder, as ptxcts-array.sbatch leaves it: its report, task.status, run.log.
void finished_task(const fs::path& results, int task) {
  const fs::path dir = results / ("node" + std::to_string(task) + "-task" + std::to_string(task));
  fs::create_directories(dir);
  RunReport r;
  r.info.gpu_name = "Fake GPU " + std::to_string(task);
  r.info.sm = "sm_90";
  r.info.cuda_release = "13.0";
  r.info.gpu_uuid = "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(task);
  r.info.slurm_task = std::to_string(task);
  std::ofstream(dir / ("fake-gpu-" + std::to_string(task) + ".json")) << report_json(r);
  std::ofstream(dir / "task.status") << "task " << task << "\nhost node" << task << "\njob 7\ngpus 0\nstarted "
                                     << "2026-11-28T08:00:00Z\nexit 0\n";
  std::ofstream(dir / "run.log") << "Verdict: Conforms.\n";
}

std::string joined(const FleetInputs& in) {
  std::ostringstream out;
  for (auto const& r : in.reports) out << "report of task " << r.info.slurm_task << "\n";
  for (auto const& u : in.unread) out << "unread " << u.path << ": " << u.why << "\n";
  for (auto const& m : in.missing) out << "missing " << m.task << ": " << m.reason << "\n";
  return out.str();
}

// collect_fleet_inputs as a user without privileges (root reads every folder: a forked child drops to
// nobody), its findings as joined() writes them.
std::string collect_as_nobody(const fs::path& results, int tasks) {
  int fds[2];
  if (::pipe(fds) != 0) return "no pipe";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    std::string text;
    try {
      text = joined(collect_fleet_inputs({results.string()}, tasks));
    } catch (const std::exception& e) { text = std::string("threw: ") + e.what(); }
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = ::write(fds[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? text : "the child failed: " + text;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(FleetInputs, AFolderTheMergingUserCannotReadIsNamedAndTheWalkGoesOn) {
  // Before: the walk stopped silently at the folder it could not enter; the tasks after it in the
  // walk's order were "no trace: the task never started" (the first folder locked: every task).
  test::TempDir t("fleet-unreadable");
  const fs::path results = t.dir / "results";
  for (int k = 0; k < 6; ++k) finished_task(results, k);
  fs::permissions(t.dir, fs::perms::all, fs::perm_options::add);    // nobody must reach the results
  const fs::path locked = fs::directory_iterator(results)->path();  // the first the walk meets
  const std::string task = locked.string().substr(locked.string().rfind("-task") + 5);
  ::chmod(locked.c_str(), 0);
  const std::string got = collect_as_nobody(results, 6);
  ::chmod(locked.c_str(), 0755);
  EXPECT_EQ(count(got, "report of task "), 5u) << got;
  EXPECT_EQ(count(got, "report of task " + task + "\n"), 0u) << got;
  EXPECT_NE(got.find("unread " + locked.string() +
                     ": cannot read this folder (Permission denied); expected a task's "
                     "folder the merging user may read"),
            std::string::npos)
      << got;
  // Its task is missing for that reason, and no readable task is said never to have started.
  EXPECT_NE(got.find("missing " + task + ": what it left could not be read: " + locked.string() +
                     ": cannot read this folder"),
            std::string::npos)
      << got;
  EXPECT_EQ(count(got, "missing "), 1u) << got;
  EXPECT_EQ(count(got, "never started"), 0u) << got;
}

TEST(FleetInputs, WhatADeadTaskLeftNeverStopsTheMerge) {
  // Before: a report cut short threw (`ptxcts merge` exit 2, no page); a FIFO for a run.log blocked
  // the merge forever; a task.status over 1 MiB threw; bytes of a garbled log went into the page as
  // they were.
  test::TempDir t("fleet-leftovers");
  const fs::path results = t.dir / "results";
  finished_task(results, 0);
  const fs::path cut = results / "node1-task1", garbled = results / "node2-task2", fifo = results / "node3-task3",
                 huge = results / "node4-task4";
  for (auto const& d : {cut, garbled, fifo, huge}) fs::create_directories(d);
  // Task 1 died writing its report: half a report, a status without its exit line.
  std::ofstream(cut / "fake-gpu-1.json") << "{\n \"schema_version\": 9,\n \"kind\": \"run\",\n \"run\": {\"gpu";
  std::ofstream(cut / "task.status") << "task 1\nhost node1\nstarted 2026-11-28T08:00:00Z\n";
  // Task 2: its status garbled after the exit line, its log random bytes.
  std::ofstream(garbled / "task.status") << "task 2\nhost node2\nexit 2\n\x01\xff\xfe garbage\n";
  std::ofstream(garbled / "run.log") << "error: x\n\x1b[31m\xff\xfe\x01 not text";
  // Task 3: a FIFO where its log should be.
  std::ofstream(fifo / "task.status") << "task 3\nhost node3\nexit 1\n";
  ASSERT_EQ(::mkfifo((fifo / "run.log").c_str(), 0644), 0);
  // Task 4: a task.status of 2 MiB.
  std::ofstream(huge / "task.status") << "task 4\n" << std::string(2 << 20, 'x');
  // Task 6: a folder where its task.status should be (before: passed over: "no trace").
  fs::create_directories(results / "node6-task6" / "task.status");
  const FleetInputs in = collect_fleet_inputs({results.string()}, 7);
  const std::string got = joined(in);
  ASSERT_EQ(in.reports.size(), 1u) << got;
  EXPECT_EQ(in.reports[0].info.slurm_task, "0");
  // The report cut short: named with its reader's place and what was expected.
  EXPECT_NE(
      got.find("unread " + (cut / "fake-gpu-1.json").string() + ": " + (cut / "fake-gpu-1.json").string() + ":4:"),
      std::string::npos)
      << got;
  EXPECT_NE(got.find("missing 1: its report could not be read: " + (cut / "fake-gpu-1.json").string()),
            std::string::npos)
      << got;
  // The garbled status and log: shown escaped, said to be garbled.
  EXPECT_NE(got.find("missing 2: ended with exit 2 and wrote no report; the end of " + (garbled / "run.log").string() +
                     ": \\x1b[31m\xef\xbf\xbd\xef\xbf\xbd\\x01 not text (not text: the log is garbled) (" +
                     (garbled / "task.status").string() + " holds lines ptxcts-array.sbatch never writes: garbled)"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("missing 3: ended with exit 1 and wrote no report; the end of " + (fifo / "run.log").string() +
                     ": (unread: it is not a plain file (a FIFO, a socket or a device); expected the console of "
                     "ptxcts run)"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("unread " + (huge / "task.status").string() + ": " + (huge / "task.status").string() +
                     ": more than 1 MiB"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("missing 4: what it left could not be read: " + (huge / "task.status").string()),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("missing 5: no trace in what could be read"), std::string::npos) << got;
  EXPECT_NE(
      got.find("missing 6: what it left could not be read: " + (results / "node6-task6" / "task.status").string() +
               ": it is a folder; expected a task.status of a few lines, as harness/slurm/ptxcts-array.sbatch "
               "writes it"),
      std::string::npos)
      << got;
  EXPECT_EQ(in.missing.size(), 6u) << got;
}

TEST(FleetMerge, AnIncompleteMergeStillWritesThePageAndExitsTwo) {
  // Before: exit 2, `error: ...` and no page, exactly when the page was needed.
  test::TempDir t("fleet-incomplete");
  const fs::path results = t.dir / "results";
  for (int k = 0; k < 2; ++k) finished_task(results, k);
  fs::create_directories(results / "node2-task2");
  std::ofstream(results / "node2-task2" / "fake-gpu-2.json") << "{\"schema_version\": 9, \"kind\": \"run\"";
  std::ofstream(results / "node2-task2" / "task.status") << "task 2\nhost node2\nstarted D\n";
  // Task 3 failed, and the end of its log is not UTF-8 (before: the JSON could not be written:
  // `error: [json.exception.type_error.316] invalid UTF-8 byte at index 78: 0xFF`, no page).
  fs::create_directories(results / "node3-task3");
  std::ofstream(results / "node3-task3" / "task.status") << "task 3\nhost node3\nstarted D\nexit 2\n";
  std::ofstream(results / "node3-task3" / "run.log") << "error: \xff\xfe not text\n";
  const fs::path out = t.dir / "fleet";
  ProcessResult r =
      run_process({PTXCTS_COMMAND, "merge", "--expect-tasks", "4", "--out", out.string(), results.string()}, 60);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("not read: " + (results / "node2-task2" / "fake-gpu-2.json").string() + ": "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("missing: task 3 on node3: ended with exit 2 and wrote no report; the end of " +
                          (results / "node3-task3" / "run.log").string() +
                          ": error: \xef\xbf\xbd\xef\xbf\xbd not text (not text: the log is garbled)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(": 2 machines (2 aligned), 0 rows differ among the aligned; 2 of 4 expected runs missing; "
                          "incomplete: 1 inputs not read"),
            std::string::npos)
      << r.output;
  ASSERT_TRUE(fs::exists(out.string() + ".html")) << r.output;
  const std::string page = read_file_text(out.string() + ".html");
  EXPECT_NE(page.find("Not read (the merge is incomplete)"), std::string::npos);
  EXPECT_NE(page.find("1 input could not be read (the merge is incomplete)"), std::string::npos);
  const std::string json = read_file_text(out.string() + ".json");
  EXPECT_NE(json.find("\"unread\": ["), std::string::npos);
  EXPECT_NE(json.find("\"task\": \"2\""), std::string::npos);
}

TEST(FleetMerge, ItsOwnPageInTheResultsFolderIsNoRunAndAFolderOutIsAFolder) {
  // Before: `--out RESULTS/summary` twice: the second merge read summary.json as a run report (`error:
  // .../summary.json:3:10: kind: expected "run" (a run report), got "fleet"`, exit 2); `--out DIR/` wrote
  // the hidden DIR/.json and DIR/.html; a results folder misspelt was `cannot read` with no more.
  test::TempDir t("fleet-out");
  const fs::path results = t.dir / "results";
  for (int k = 0; k < 2; ++k) finished_task(results, k);
  for (int twice = 0; twice < 2; ++twice) {
    ProcessResult r = run_process(
        {PTXCTS_COMMAND, "merge", "--expect-tasks", "2", "--out", (results / "summary").string(), results.string()},
        60);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(": 2 machines (2 aligned), 0 rows differ among the aligned\n"), std::string::npos)
        << r.output;
  }
  fs::create_directories(t.dir / "pages");
  ProcessResult folder =
      run_process({PTXCTS_COMMAND, "merge", "--out", (t.dir / "pages").string() + "/", results.string()}, 60);
  EXPECT_EQ(folder.exit_code, 0) << folder.output;
  EXPECT_TRUE(fs::exists(t.dir / "pages" / "fleet.html")) << folder.output;
  EXPECT_FALSE(fs::exists(t.dir / "pages" / ".html")) << folder.output;
  ProcessResult typo = run_process({PTXCTS_COMMAND, "merge", "--expect-tasks", "2", "--out", (t.dir / "typo").string(),
                                    (t.dir / "resutls").string()},
                                   60);
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_NE(typo.output.find("error: merge: " + (t.dir / "resutls").string() +
                             ": no such file or folder; expected run reports or a fleet's results folder"),
            std::string::npos)
      << typo.output;
  EXPECT_FALSE(fs::exists(t.dir / "typo.html"));
}

TEST(ReportCommands, APageOrAFleetIsNeverWrittenOverTheReportItReads) {
  // Before: `ptxcts merge a.json b.json --out a` wrote the fleet over a.json, and `ptxcts diff a.json
  // b.json --html a.json` the page over a.json, both exit 0: the report was lost.
  test::TempDir t("overwrite");
  finished_task(t.dir, 0);
  const fs::path a = t.dir / "node0-task0" / "fake-gpu-0.json", b = t.dir / "b.json";
  fs::copy_file(a, b);
  const std::string before = read_file_text(a);
  const std::string prefix = (a.parent_path() / "fake-gpu-0").string();
  ProcessResult merge = run_process({PTXCTS_COMMAND, "merge", a.string(), b.string(), "--out", prefix}, 60);
  EXPECT_EQ(merge.exit_code, 2) << merge.output;
  EXPECT_NE(merge.output.find("error: merge: --out " + prefix + " would write " + prefix + ".json over the report " +
                              a.string() + " it reads; give another name"),
            std::string::npos)
      << merge.output;
  ProcessResult diff = run_process({PTXCTS_COMMAND, "diff", a.string(), b.string(), "--html", a.string()}, 60);
  EXPECT_EQ(diff.exit_code, 2) << diff.output;
  EXPECT_NE(diff.output.find("error: diff: --html " + a.string() + " is the report " + a.string() +
                             " it compares: the page would overwrite it; give the page another name"),
            std::string::npos)
      << diff.output;
  EXPECT_EQ(read_file_text(a), before);
  EXPECT_FALSE(fs::exists(prefix + ".html"));
}

TEST(FleetInputs, AResultsFolderWhoseNameIsNotUtf8StillMakesTheFleet) {
  // Before: a missing task's reason names its task.status by path, and a path with a byte that is
  // not UTF-8 made the JSON unwritable: `error: [json.exception.type_error.316] invalid UTF-8 byte at
  // index 94: 0xFF`, exit 2, no page.
  test::TempDir t("fleet-bytes");
  const fs::path results = t.dir / "results\xff";
  finished_task(results, 0);
  fs::create_directories(results / "node1-task1");
  std::ofstream(results / "node1-task1" / "task.status") << "task 1\nhost node1\nstarted D\n";
  const FleetInputs in = collect_fleet_inputs({results.string()}, 2);
  ASSERT_EQ(in.missing.size(), 1u);
  EXPECT_NE(in.missing[0].reason.find("results\xef\xbf\xbd/node1-task1/task.status"), std::string::npos)
      << in.missing[0].reason;
  const std::string json = fleet_json(merge_reports(in.reports, in.missing));
  EXPECT_NE(json.find("\"task\": \"1\""), std::string::npos);
}
