// What `ptxcts run` says, as a newcomer meets it: a run ends with where its reports went (or that
// none were written) and its verdict line, last; -q says less than the default; a run without a
// GPU ends with the toolkit side's verdict; --cases runs those cases alone, and names what it cannot
// find. Expected counts come from other runs of the same suite, never from the printing code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/small_suite.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;
using namespace ptxcts;

namespace {

ProcessResult run_ptxcts(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {"env", "PTXCTS_FAKE_MODE=model"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(PTXCTS_COMMAND);
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, 600);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The verdict's count of cases as documented ("Conforms: 52 cases as documented, ..."), -1 if none.
// The console as one text: a line the console wraps goes on indented by four spaces, and where it
// breaks depends on the length of the paths it names (a clone's own folder), so a phrase is looked
// for with the wraps undone.
std::string unwrapped(std::string text) {
  for (std::size_t at; (at = text.find("\n    ")) != std::string::npos;) text.replace(at, 5, " ");
  return text;
}

int documented(const std::string& output) {
  std::smatch m;
  static const std::regex re("\nConforms: ([0-9,]+) cases? as documented");
  if (!std::regex_search(output, m, re)) return -1;
  std::string n = m[1];
  std::erase(n, ',');
  return std::stoi(n);
}

// The small suite's (support/small_suite.hpp): what a run says does not depend on its families.
const std::vector<std::string> kRun = {"--specs",     test::small_suite_specs(),   "run",      "--no-assemble",
                                       "--catalog",   test::small_suite_catalog(), "--runner", PTXCTS_FAKE_RUNNER};

}  // namespace

TEST(RunConsole, ARunEndsWithWhereItsReportsWentAndItsVerdict) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const fs::path reports = fs::temp_directory_path() / "ptxcts-console-reports";
  fs::remove_all(reports);
  auto args = kRun;
  args.insert(args.end(), {"--reports", reports.string()});
  const ProcessResult r = run_ptxcts(args);
  fs::remove_all(reports);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  if (documented(r.output) == 0) GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  const auto lines = lines_of(r.output);
  ASSERT_GE(lines.size(), 3u);
  // The verdict is the last line (wrapped lines are indented); where the reports went is just before it.
  std::size_t verdict = lines.size() - 1;
  while (verdict > 0 && lines[verdict].starts_with(" ")) --verdict;
  EXPECT_TRUE(lines[verdict].starts_with("Conforms: ")) << r.output;
  EXPECT_TRUE(lines[verdict - 1].starts_with("Reports: " + reports.string() + "/")) << r.output;
  EXPECT_NE(lines[verdict - 1].find(".{json,md,xml,html}"), std::string::npos) << r.output;
  // Lines fit 120 columns but for the paths they name, which are never folded (a folded path cannot
  // be copied): the reports' folder is as long as $TMPDIR makes it.
  for (auto const& l : lines) {
    const std::size_t path = l.find(reports.string()) == std::string::npos ? 0 : reports.string().size();
    EXPECT_LE(l.size() - path, 120u) << "a line too long to read: " << l;
  }
}

TEST(RunConsole, QuietSaysLessThanTheDefault) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  auto args = kRun;
  args.insert(args.end(), {"--family", "movmatrix"});
  const ProcessResult normal = run_ptxcts(args);
  args.push_back("-q");
  const ProcessResult quiet = run_ptxcts(args);
  ASSERT_EQ(normal.exit_code, 0) << normal.output;
  ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_LT(lines_of(quiet.output).size(), lines_of(normal.output).size()) << quiet.output << "\n---\n" << normal.output;
  // Both end with the verdict, and say that a run of some families writes its JUnit file alone
  // (issue 41: a CI's junit step finds one on every run).
  for (auto const* out : {&quiet.output, &normal.output}) {
    EXPECT_NE(unwrapped(*out).find("-selection.xml only (JUnit of the selected cases)"),
              std::string::npos)
        << *out;
    EXPECT_EQ(documented(*out), documented(normal.output));
  }
}

// Without a GPU: the toolkit side, ending with its verdict and its JUnit file.
TEST(RunConsole, ARunWithoutAGpuEndsWithTheToolkitSidesVerdict) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  const ProcessResult r = run_ptxcts(kRun, {"PTXCTS_FAKE_DEVICES=[]"});
  const auto lines = lines_of(r.output);
  ASSERT_FALSE(lines.empty()) << r.output;
  EXPECT_NE(r.output.find("No GPU: "), std::string::npos) << r.output;
  // Its JUnit file, every case skipped (issue 41: a CI's junit step finds one on every run).
  EXPECT_NE(r.output.find("\nReports: "), std::string::npos) << r.output;
  EXPECT_NE(unwrapped(r.output).find(".xml only (JUnit: every case skipped,"), std::string::npos) << r.output;
  std::size_t last = lines.size() - 1;
  while (last > 0 && lines[last].starts_with(" ")) --last;
  EXPECT_TRUE(lines[last].starts_with("Toolkit side only (no GPU): no case ran; ")) << r.output;
  for (auto const& l : lines) EXPECT_LE(l.size(), 120u) << "a line too long to read: " << l;
}

// --cases runs the cases it names alone: fewer than the family's, more than none.
TEST(RunConsole, CasesSelectsThoseCasesAlone) {
  ASSERT_TRUE(test::has_small_suite()) << "no small suite in " PTXCTS_SMALL_SUITE_DIR " (the build makes it)";
  auto family = kRun;
  family.insert(family.end(), {"--family", "movmatrix", "-q"});
  auto cases = kRun;
  cases.insert(cases.end(), {"--cases", "movmatrix.*/unique-*", "-q"});
  const ProcessResult all = run_ptxcts(family), some = run_ptxcts(cases);
  ASSERT_EQ(all.exit_code, 0) << all.output;
  ASSERT_EQ(some.exit_code, 0) << some.output;
  if (documented(all.output) <= 0) GTEST_SKIP() << "the build's catalog has no sm_90 code to run";
  EXPECT_GT(documented(some.output), 0) << some.output;
  EXPECT_LT(documented(some.output), documented(all.output)) << some.output;
  // The same selection from a case list (what `ptxcts list --cases` writes, filtered) runs the same.
  const fs::path list = fs::temp_directory_path() / "ptxcts-case-list.txt";
  const ProcessResult listed = run_ptxcts({"--specs", test::small_suite_specs(), "list", "--cases"});
  ASSERT_EQ(listed.exit_code, 0);
  std::ofstream out(list);
  out << "# the movmatrix cases of unique inputs\n\n";
  for (auto const& l : lines_of(listed.output))
    if (l.starts_with("movmatrix.") && l.find("/unique-") != std::string::npos) out << l << "\n";
  out.close();
  auto from_file = kRun;
  from_file.insert(from_file.end(), {"--cases", "@" + list.string(), "-q"});
  const ProcessResult file_run = run_ptxcts(from_file);
  fs::remove(list);
  EXPECT_EQ(documented(file_run.output), documented(some.output)) << file_run.output;
}

TEST(RunConsole, CasesThatNameNothingOrABadListLineAreRefused) {
  auto args = kRun;
  args.insert(args.end(), {"--cases", "nothing.like.this/x"});
  const ProcessResult none = run_ptxcts(args);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.output.find("error: --cases nothing.like.this/x: no case of the suite is named so; expected "
                             "KERNEL/CASE names as `ptxcts list --cases` lists them, e.g. "),
            std::string::npos)
      << none.output;
  const fs::path list = fs::temp_directory_path() / "ptxcts-bad-case-list.txt";
  std::ofstream(list) << "# a list\nmovmatrix.sync.aligned.m8n8.trans.b16_a64/unique-contiguous\n  not a case\n";
  args = kRun;
  args.insert(args.end(), {"--cases", "@" + list.string()});
  const ProcessResult bad = run_ptxcts(args);
  fs::remove(list);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("error: " + list.string() + ":3:3: expected KERNEL/CASE (a case name or glob), got 'not a case'"),
            std::string::npos)
      << bad.output;
}
