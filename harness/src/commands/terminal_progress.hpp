// What `ptxcts run` shows while it runs. On a terminal: one line that updates in place (cases
// done/total, failures so far, rate, time left), each failure printed in full above it when it
// happens. Not on a terminal (CI logs): the same line every few seconds, and the failures.
// --quiet: the failures only; --verbose: also a line per kernel. The first 10 failures are printed in
// full, the next 40 a line each, the rest only counted.
#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "results/results.hpp"

namespace ptxcts {

enum class Verbosity { Quiet, Normal, Verbose };

class TerminalProgress {
 public:
  // `tty`: `out` is a terminal (the line is redrawn in place); `every`: how often the line is
  // printed when it is not.
  TerminalProgress(std::FILE* out, bool tty, Verbosity verbosity, std::string prefix = "",
                   std::chrono::milliseconds every = std::chrono::seconds(5));
  // Thread-safe: called as each case's verdict is known.
  void case_done(const CaseResult& r, std::size_t done, std::size_t total);
  void kernel_line(const std::string& line);  // shown with --verbose
  void finish();                              // the in-place line cleared, the last state said once
  // The progress line itself (no newline), for tests.
  static std::string line(std::size_t done, std::size_t total, std::size_t failures, double seconds);

 private:
  void print_above(const std::string& text);  // a whole line, above the in-place one
  void draw(bool force);
  std::FILE* out_;
  bool tty_;
  Verbosity verbosity_;
  std::string prefix_;
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_draw_{};
  std::size_t done_ = 0, total_ = 0, failures_ = 0;
  bool drawn_ = false;  // an in-place line is on the screen
  std::mutex mutex_;
  static constexpr std::size_t kFailuresInFull = 10, kFailuresListed = 50;
};

// A failure: its outcome, kernel / case, reason, then (`with_diff`) the diff lines.
std::string failure_text(const CaseResult& r, bool with_diff = true);

}  // namespace ptxcts
