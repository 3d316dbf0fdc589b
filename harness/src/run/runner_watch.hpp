// The limits on a device runner's progress, besides its idle watchdog (which any output moves on,
// so that a runner printing "loading" every second would be waited for forever): a batch, from the
// runner's start (or go) or the end of the batch before to its last result, gets `batch_seconds`
// (its modules' loading included); its launches, from its "batch K N" line to their results,
// `launch_seconds`. Lines that only say the runner is alive ("loading", "waiting") move neither.
// A limit is armed in every state of a runner: one started ahead of time (start()) gets the limit on
// a batch to say it is ready (its context made), then waits for its go without one (nobody waits for
// it then: its go or its quit arms the next); told to go, the limits above; told to quit (quit()), the
// limit on a launch to end, whatever it prints.
// A batch whose every launch is a case the documents leave undefined on its target gets the limit
// on an undefined case instead of the limit on a launch (limit_undefined: --undefined-timeout),
// decided at its "batch K N" line, so that a runner started ahead of time, before its cases were
// known, gets it for exactly the launches it is for.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>

#include "util/subprocess.hpp"

namespace ptxcts {

class RunnerWatch {
 public:
  RunnerWatch(double launch_seconds, double batch_seconds) : launch_(launch_seconds), batch_(batch_seconds) {}
  void limit(double launch_seconds, double batch_seconds);  // from the next begin() on
  // Whether every job of a batch [first, first + count) of the runner's job file is a case whose
  // outcome is undefined on its target.
  using AllUndefined = std::function<bool(std::size_t first, std::size_t count)>;
  // From the next "batch" line on, such a batch's launches get `seconds` (0: no such limit).
  void limit_undefined(double seconds, AllUndefined all_undefined);
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
  double launch_limit_locked() const;  // the limit on the launch in flight
  State state_ = State::Working;
  double launch_, batch_;
  double undefined_ = 0;          // the limit on a launch of undefined cases (0: none)
  AllUndefined all_undefined_;    // which batches those are
  bool undefined_batch_ = false;  // the batch in flight is undefined cases alone
  mutable std::mutex mutex_;
  Clock::time_point batch_began_{};
  bool launching_ = false;  // between a "batch" line and the batch's results
  std::string last_line_;   // the last line that was no progress ("loading")
  std::string said_in_launch_;  // the last such line since the launch in flight began
  ChildWatch child_;
};

}  // namespace ptxcts
