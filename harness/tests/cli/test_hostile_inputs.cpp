// Issue 40: what a hostile or careless user gives `ptxcts run` and the commands around it: a
// selection of nothing (refused, never run as every case, no report written or overwritten), files
// without a bound (refused at 256 MiB, naming the file and what was expected), a stray expectations
// file in the suite's own folder (never read), the places toolkits are looked for with $HOME unset.
// Each runs the real `ptxcts` with the fake device runner; the messages are the ones the issue asks
// for (the file, and what was expected there).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

struct InputsDir {
  fs::path path = fs::temp_directory_path() / ("ptxcts-inputs-" + std::to_string(::getpid()));
  InputsDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~InputsDir() { fs::remove_all(path); }
};

ProcessResult ptxcts_with(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {"env", "PTXCTS_FAKE_MODE=model"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(PTXCTS_COMMAND);
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, 300);
}

std::vector<std::string> run_into(const fs::path& reports, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"run",      "--no-assemble",     "--catalog", PTXCTS_CATALOG_DIR,
                                   "--runner", PTXCTS_FAKE_RUNNER, "--reports", reports.string()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A sparse file of `bytes` (no disk used): past the 256 MiB every reader of the suite takes.
void sparse_file(const fs::path& file, std::uintmax_t bytes) {
  std::ofstream(file).close();
  fs::resize_file(file, bytes);
}

// The fake device is an sm_90 GPU: a run proves something only where the catalog holds sm_90 code.
bool catalog_runs_on_the_fake_gpu() { return text_of(fs::path(PTXCTS_CATALOG_DIR) / "manifest.json").find("\"sm_90\"") != std::string::npos; }

constexpr const char* kEveryCase =
    "; expected a case list: KERNEL/CASE names or globs, one a line, as `ptxcts list --cases` writes them (a "
    "selection of nothing is refused, never run as every case)\n";

}  // namespace

// Before: an empty list, one of comments only, or a folder as the list ran all 5,415 cases, exited 0
// and overwrote the reports. Now: one line naming the file and what was expected, exit 2, no run,
// the reports folder as it was.
TEST(HostileInputs, ASelectionOfNothingIsRefusedAndNoReportIsWritten) {
  InputsDir t;
  const fs::path reports = t.path / "reports", empty = t.path / "empty.txt", comments = t.path / "comments.txt",
                 folder = t.path / "a folder", nothing = t.path / "nothing.txt";
  fs::create_directories(reports);
  fs::create_directories(folder);
  std::ofstream(reports / "fake-gpu-sm_90-driver0.0-cuda13.0.json") << "the last run's report\n";
  std::ofstream(empty).close();
  std::ofstream(comments) << "# ptxcts 1.0 (commit x): 0 cases\n\n   \n# none failed\n";
  std::ofstream(nothing) << "no.such.kernel/*\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"@" + empty.string(), "error: " + empty.string() + ": names no case (it is empty)" + kEveryCase},
      {"@" + comments.string(),
       "error: " + comments.string() + ": names no case (only blank lines and # comments)" + kEveryCase},
      {"@" + folder.string(),
       "error: " + folder.string() +
           ": is a folder; expected a case list (--cases @FILE: KERNEL/CASE names or globs, one a line)\n"},
      {"@", "error: --cases '@': expected @FILE, the path of a case list, after the '@'\n"},
      {"@" + (t.path / "absent.txt").string(),
       "error: " + (t.path / "absent.txt").string() +
           ": cannot read this case list (--cases @FILE): No such file or directory\n"},
  };
  for (auto const& [argument, message] : cases) {
    const ProcessResult r = ptxcts_with(run_into(reports, {"--cases", argument}));
    EXPECT_EQ(r.exit_code, 2) << argument << ": " << r.output;
    EXPECT_EQ(r.output, message) << argument;
  }
  // A list that names no case of the suite: refused once the specs say which cases there are.
  const ProcessResult r = ptxcts_with(run_into(reports, {"--cases", "@" + nothing.string()}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.find("error: --cases no.such.kernel/*: no case of the suite is named so"), 0u) << r.output;
  // Nothing written or overwritten: the old report as it was, no journal, nothing else.
  EXPECT_EQ(text_of(reports / "fake-gpu-sm_90-driver0.0-cuda13.0.json"), "the last run's report\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(reports), fs::directory_iterator()), 1);
}

// Before: the case list and the expectations file were read without a bound (memory grew until the
// process died, and the message named no file). Now: refused at 256 MiB, naming the file and what
// was expected there.
TEST(HostileInputs, ACaseListOrExpectationsFilePastTheBoundIsRefusedNamingIt) {
  InputsDir t;
  const fs::path big = t.path / "big list.txt", reports = t.path / "reports";
  sparse_file(big, (std::uintmax_t{256} << 20) + 1);
  ProcessResult r = ptxcts_with(run_into(reports, {"--cases", "@" + big.string()}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "error: " + big.string() +
                          ": more than 256 MiB; refused unread (expected a case list (--cases @FILE: KERNEL/CASE "
                          "names or globs, one a line))\n");
  const fs::path yaml = t.path / "big.yaml";
  fs::rename(big, yaml);
  r = ptxcts_with(run_into(reports, {"--family", "movmatrix", "--expectations", yaml.string()}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "error: " + yaml.string() +
                          ": more than 256 MiB; refused unread (expected an expectations file (YAML: gpu, driver, "
                          "expectations))\n");
  EXPECT_FALSE(fs::exists(reports));
}

// Before: `ptxcts run` read every *.yaml of the specs' expectations/ (an installed package's own
// folder) unasked: a stray file there turned a wrong GPU's run into exit 0. Now only the files
// --expectations names are read.
TEST(HostileInputs, AStrayExpectationsFileInTheSuitesFolderIsNeverRead) {
  if (!catalog_runs_on_the_fake_gpu()) GTEST_SKIP() << "the build's catalog has no sm_90 code, which the fake device runs";
  InputsDir t;
  const fs::path specs = t.path / "specs";
  fs::copy(PTXCTS_SOURCE_DIR "/specs", specs, fs::copy_options::recursive);
  std::ofstream(specs / "expectations" / "stray.yaml")
      << "gpu: \"*\"\ndriver: \"*\"\nexpectations:\n  - case: \"*/*\"\n    outcome: fail\n    reason: \"planted\"\n"
         "    link: \"https://example.org/planted\"\n";
  std::vector<std::string> args = {"--specs", specs.string()};
  for (auto const& a : run_into(t.path / "reports", {"--family", "movmatrix", "-q"})) args.push_back(a);
  const ProcessResult r = ptxcts_with(args, {"PTXCTS_FAKE_MODE=off-by-one"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.find("planted"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("known difference"), std::string::npos) << r.output;
}

// Before: each named some case, together none: `Nothing checked: none of 0 cases ran`, exit 0.
TEST(HostileInputs, AFamilyAndCasesWithNoCaseInCommonAreRefused) {
  InputsDir t;
  const ProcessResult r =
      ptxcts_with(run_into(t.path / "reports", {"--family", "movmatrix", "--cases", "ldmatrix*/*"}));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "error: --family movmatrix and --cases ldmatrix*/* have no case in common: the selection names no "
                      "case; expected cases of those families (`ptxcts list --cases` lists them)\n");
  EXPECT_FALSE(fs::exists(t.path / "reports"));
}

// Before: a list saved with a byte-order mark (a Windows editor, CRLF lines) named no case: the
// mark, invisible in the message, was part of its first name.
TEST(HostileInputs, ACaseListWithAByteOrderMarkRuns) {
  if (!catalog_runs_on_the_fake_gpu()) GTEST_SKIP() << "the build's catalog has no sm_90 code, which the fake device runs";
  InputsDir t;
  const fs::path list = t.path / "failed cases.txt";
  std::ofstream(list) << "\xEF\xBB\xBFmovmatrix*/unique-*\r\n# the rest passed\r\n";
  const ProcessResult r = ptxcts_with(run_into(t.path / "reports", {"--cases", "@" + list.string(), "-q"}));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Conforms: "), std::string::npos) << r.output;
}

// Before: an empty value (`--ptxas "$UNSET"`) meant "none given": `run --ptxas ''` used the build's
// toolkit, `--runner ''` ran the toolkit side ("No GPU"), exit 0, `toolkits --cache ''` listed no
// cache. Now every option and argument that takes a value refuses an empty one, before anything runs.
TEST(HostileInputs, AnEmptyValueIsRefusedNeverTakenForNoneGiven) {
  InputsDir t;
  const std::string tail = ": an empty value; expected one (an unset shell variable?)\nRun with --help for more information.\n";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {run_into(t.path / "reports", {"--family", "movmatrix", "--ptxas", ""}), "--ptxas"},
      {{"run", "--no-assemble", "--catalog", PTXCTS_CATALOG_DIR, "--runner", "", "--family", "movmatrix", "--reports",
        (t.path / "reports").string()},
       "--runner"},
      {run_into(t.path / "reports", {"--family", "movmatrix", "--expectations", ""}), "--expectations"},
      {{"toolkits", "--cache", ""}, "--cache"},
      {{"diff", "", "x.json"}, "before"},
  };
  for (auto const& [args, option] : cases) {
    const ProcessResult r = ptxcts_with(args);
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.output;
    EXPECT_EQ(r.output, option + tail) << option;
  }
  EXPECT_FALSE(fs::exists(t.path / "reports"));
}
