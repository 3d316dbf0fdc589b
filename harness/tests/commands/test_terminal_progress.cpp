// What `ptxcts run` shows while it runs: failures in full as they happen, one line redrawn in place
// on a terminal, a line every few seconds elsewhere, nothing but failures with --quiet.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

#include "commands/terminal_progress.hpp"

using namespace ptxcts;

namespace {

std::string shown(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

CaseResult result(Status s, const std::string& kernel, bool fault_case = false) {
  CaseResult r;
  r.kernel = kernel;
  r.case_name = "unique-contiguous";
  r.status = s;
  r.fault_case = fault_case;
  if (s == Status::Fail) {
    r.reason = "2 element(s) differ from the reference model";
    r.diff = {"warp 0 lane 3 register 1 element 0: expected 0x0011, got 0x0012"};
  }
  return r;
}

}  // namespace

TEST(TerminalProgress, TheLineSaysDoneTotalFailuresRateAndTimeLeft) {
  EXPECT_EQ(TerminalProgress::line(500, 2000, 3, 2.0), "500/2000 cases, 3 failed, 250 cases/s, ~6 s left");
  EXPECT_EQ(TerminalProgress::line(2000, 2000, 0, 4.0), "2000/2000 cases, 0 failed, 500 cases/s");
}

TEST(TerminalProgress, AFailureIsPrintedInFullWhenItHappensAndTheLineRedrawnOnATerminal) {
  std::FILE* f = std::tmpfile();
  TerminalProgress p(f, true, Verbosity::Normal);
  p.case_done(result(Status::Pass, "k0"), 1, 3);
  p.case_done(result(Status::Fail, "k1"), 2, 3);
  p.case_done(result(Status::Crash, "k2", true), 3, 3);  // a fault case's crash is an observation
  p.finish();
  const std::string out = shown(f);
  EXPECT_NE(out.find("\r\x1b[K1/3 cases, 0 failed"), std::string::npos) << out;
  EXPECT_NE(out.find("  failed    k1/unique-contiguous: 2 element(s) differ from the reference model\n"
                     "            warp 0 lane 3 register 1 element 0: expected 0x0011, got 0x0012\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("k2"), std::string::npos) << out;
  EXPECT_NE(out.find("3/3 cases, 1 failed"), std::string::npos) << out;
  EXPECT_EQ(out.back(), '\n');
  std::fclose(f);
}

TEST(TerminalProgress, NotOnATerminalALineEveryFewSecondsAndNoEscapes) {
  std::FILE* f = std::tmpfile();
  TerminalProgress p(f, false, Verbosity::Normal, "", std::chrono::milliseconds(50));
  p.case_done(result(Status::Pass, "k0"), 1, 4);  // the first only starts the clock
  p.case_done(result(Status::Pass, "k1"), 2, 4);
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  p.case_done(result(Status::Pass, "k2"), 3, 4);
  const std::string out = shown(f);
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(out.find("2/4 cases"), std::string::npos) << out;
  EXPECT_NE(out.find("3/4 cases, 0 failed"), std::string::npos) << out;
  std::fclose(f);
}

TEST(TerminalProgress, QuietShowsOnlyFailures) {
  std::FILE* f = std::tmpfile();
  TerminalProgress p(f, true, Verbosity::Quiet);
  p.kernel_line("[  1/2] pass  k0 (6/6 cases pass)");
  p.case_done(result(Status::Pass, "k0"), 1, 2);
  p.case_done(result(Status::Fail, "k1"), 2, 2);
  p.finish();
  const std::string out = shown(f);
  EXPECT_EQ(out,
            "  failed    k1/unique-contiguous: 2 element(s) differ from the reference model\n"
            "            warp 0 lane 3 register 1 element 0: expected 0x0011, got 0x0012\n");
  std::fclose(f);
}

// A run where everything fails must not bury its end: the first 10 failures in full, the next 40 a
// line each, then one line that says the rest are in the reports.
TEST(TerminalProgress, ManyFailuresAreCutShortAndSaySo) {
  std::FILE* f = std::tmpfile();
  TerminalProgress p(f, false, Verbosity::Quiet);
  for (int k = 0; k < 200; ++k) p.case_done(result(Status::Fail, "k" + std::to_string(k)), k + 1, 200);
  p.finish();
  const std::string out = shown(f);
  auto lines_with = [&](const std::string& s) {
    int n = 0;
    for (std::size_t at = 0; (at = out.find(s, at)) != std::string::npos; ++at) ++n;
    return n;
  };
  EXPECT_EQ(lines_with("  failed    k"), 50) << out;
  EXPECT_EQ(lines_with("warp 0 lane 3"), 10) << out;
  EXPECT_NE(out.find(" k49/"), std::string::npos) << out;
  EXPECT_EQ(out.find(" k50/"), std::string::npos) << out;
  EXPECT_EQ(lines_with("further failures are not printed; the reports have every one"), 1) << out;
  std::fclose(f);
}

TEST(TerminalProgress, VerboseAddsALinePerKernel) {
  std::FILE* f = std::tmpfile();
  TerminalProgress normal(f, false, Verbosity::Normal);
  normal.kernel_line("[  1/2] pass  k0 (6/6 cases pass)");
  EXPECT_EQ(shown(f), "");
  std::FILE* g = std::tmpfile();
  TerminalProgress verbose(g, false, Verbosity::Verbose);
  verbose.kernel_line("[  1/2] pass  k0 (6/6 cases pass)");
  EXPECT_EQ(shown(g), "[  1/2] pass  k0 (6/6 cases pass)\n");
  std::fclose(f);
  std::fclose(g);
}
