// The limits on a device runner's progress, besides its idle watchdog (which any output moves on,
// so that a runner printing "loading" every second would be waited for forever): a batch, from the
// runner's start (or go) or the end of the batch before to its last result, gets `batch_seconds`
// (its modules' loading included); its launches, from its "batch K N" line to their results,
// `launch_seconds`. Lines that only say the runner is alive ("loading", "waiting") move neither.
// A limit is armed in every state of a runner: one started ahead of time (start()) gets the limit on
// a batch to say it is ready (its context made), then waits for its go without one (nobody waits for
// it then: its go or its quit arms the next); told to go, the limits above; told to quit (quit()), the
// limit on a launch to end, whatever it prints.
#pragma once

#include <chrono>
#include <mutex>
#include <string>

#include "util/subprocess.hpp"

namespace ptxcts {

class RunnerWatch {
 public:
  RunnerWatch(double launch_seconds, double batch_seconds) : launch_(launch_seconds), batch_(batch_seconds) {}
  void limit(double launch_seconds, double batch_seconds);  // from the next begin() on
  void start();                        // started ahead of time (standby): to be ready within the limit on a batch
  void begin();                        // started to work, or told to go: a batch begins
  void quit();                         // told to quit: to end within the limit on a launch
  void hear(const std::string& line);  // each line the runner prints
  ChildWatch& child() { return child_; }
  // Why the runner was killed when its ChildWatch's deadline passed: which limit, and what it said last.
  std::string why_stalled() const;
  bool launching() const;  // between a "batch" line and the batch's results (else loading, or between batches)

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { Working, Starting, Waiting, Quitting };
  void set_deadline_locked();
  State state_ = State::Working;
  double launch_, batch_;
  mutable std::mutex mutex_;
  Clock::time_point batch_began_{};
  bool launching_ = false;  // between a "batch" line and the batch's results
  std::string last_line_;   // the last line that was no progress ("loading")
  ChildWatch child_;
};

}  // namespace ptxcts
