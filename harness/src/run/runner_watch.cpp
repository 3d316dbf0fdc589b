#include "run/runner_watch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace ptxcts {

void RunnerWatch::limit(double launch_seconds, double batch_seconds) {
  std::lock_guard<std::mutex> hold(mutex_);
  launch_ = launch_seconds, batch_ = batch_seconds;
}

void RunnerWatch::limit_undefined(double seconds, AllUndefined all_undefined) {
  std::lock_guard<std::mutex> hold(mutex_);
  undefined_ = seconds, all_undefined_ = std::move(all_undefined);
}

void RunnerWatch::start() {
  std::lock_guard<std::mutex> hold(mutex_);
  state_ = State::Starting;
  batch_began_ = Clock::now();
  launching_ = false;
  child_.deadline_in(batch_);
}

void RunnerWatch::begin() {
  std::lock_guard<std::mutex> hold(mutex_);
  state_ = State::Working;
  last_line_.clear();  // what it said while it started ("loading") is not what it kept printing at work
  batch_began_ = Clock::now();
  launching_ = false;
  set_deadline_locked();
}

void RunnerWatch::quit() {
  std::lock_guard<std::mutex> hold(mutex_);
  state_ = State::Quitting;
  launching_ = false;
  child_.deadline_in(launch_);
}

void RunnerWatch::hear(const std::string& line) {
  std::lock_guard<std::mutex> hold(mutex_);
  if (state_ == State::Starting && (line == "ready" || line == "waiting")) {
    state_ = State::Waiting;  // ready: it waits for its go (or quit), which arms the next limit
    child_.clear_deadline();
    return;
  }
  if (state_ != State::Working) {  // starting, waiting or quitting: no line moves its limit
    if (line != "waiting") last_line_ = line.substr(0, 80);
    return;
  }
  if (line.rfind("batch ", 0) == 0) {
    launching_ = true;
    said_in_launch_.clear();
    std::size_t first = 0, count = 0;
    undefined_batch_ = undefined_ > 0 && all_undefined_ &&
                       std::sscanf(line.c_str(), "batch %zu %zu", &first, &count) == 2 && all_undefined_(first, count);
  } else if (line.rfind("done ", 0) == 0) {  // a result: the next batch may begin
    batch_began_ = Clock::now();
    launching_ = false;
  } else {
    // A standby runner told to go before it was ready says "ready" late: a word of its start, not one
    // it kept printing while it worked.
    if (line != "ready") last_line_ = line.substr(0, 80);
    if (launching_) said_in_launch_ = last_line_;
    return;
  }
  set_deadline_locked();
}

void RunnerWatch::set_deadline_locked() {
  const double batch_left = batch_ - std::chrono::duration<double>(Clock::now() - batch_began_).count();
  child_.deadline_in(launching_ ? std::min(launch_limit_locked(), batch_left) : batch_left);
}

double RunnerWatch::launch_limit_locked() const {
  return launching_ && undefined_batch_ ? std::min(undefined_, launch_) : launch_;
}

bool RunnerWatch::launching() const {
  std::lock_guard<std::mutex> hold(mutex_);
  return launching_;
}

std::string RunnerWatch::why_stalled() const {
  std::lock_guard<std::mutex> hold(mutex_);
  const std::string said = last_line_.empty() ? "" : fmt::format(" ('{}')", last_line_);
  if (state_ == State::Quitting)
    return fmt::format("told to quit, it did not end within {} s (the limit on a launch), though it kept printing{}; "
                       "it was killed",
                       launch_, said);
  if (state_ == State::Starting)
    return fmt::format("not ready within {} s of its start (the limit on a batch, making its context included), "
                       "though it kept printing{}; it was killed",
                       batch_, said);
  const double batch_left = batch_ - std::chrono::duration<double>(Clock::now() - batch_began_).count();
  if (launching_ && batch_left > 0 && undefined_batch_)
    return fmt::format("no result within {} s of the launch (the limit on an undefined case, --undefined-timeout){}; "
                       "the device runner was killed",
                       launch_limit_locked(),
                       said_in_launch_.empty() ? "" : fmt::format(", though it kept printing ('{}')", said_in_launch_));
  if (launching_ && batch_left > 0)
    return fmt::format(
        "no result within {} s of the launch (the limit on a launch), though the device runner kept printing{}; "
        "it was killed",
        launch_, said);
  return fmt::format(
      "no result within {} s (the limit on a batch, its modules' loading included), though the device runner kept "
      "printing{}; it was killed",
      batch_, said);
}

}  // namespace ptxcts
