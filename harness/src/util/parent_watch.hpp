// A child's own half of dying with its parent, for where the parent-death signal that run_process
// sets (Linux) is not there, or was set too late: a thread that ends this process when its parent
// is gone. Device runners call it first: one left waiting for a go file that will never come, or
// running launches nobody reads, would otherwise live on with parent 1.
#pragma once

#include <unistd.h>

#include <chrono>
#include <thread>

namespace ptxcts {

inline void exit_when_parent_goes(int exit_code) {
  const pid_t parent = ::getppid();
  if (parent <= 1) return;  // started by init, or its parent is gone already: nothing to follow
  std::thread([parent, exit_code] {
    while (::getppid() == parent) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::_exit(exit_code);
  }).detach();
}

}  // namespace ptxcts
