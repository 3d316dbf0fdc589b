// Work spread over threads without std::terminate: an exception in any thread (a full disk, an
// unreadable file) ends that thread's share and is rethrown to the caller once all have ended.
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ptxcts {

// Runs each of `workers` on a thread of its own (the first on this one) and waits for all; then
// rethrows the first exception any of them threw.
inline void run_threads(const std::vector<std::function<void()>>& workers) {
  std::exception_ptr first;
  std::mutex m;
  auto guarded = [&](const std::function<void()>& w) {
    try {
      w();
    } catch (...) {
      std::lock_guard lock(m);
      if (!first) first = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < workers.size(); ++t) pool.emplace_back(guarded, std::cref(workers[t]));
  if (!workers.empty()) guarded(workers[0]);
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

// `worker` on `threads` threads (at least one).
inline void run_threads(int threads, const std::function<void()>& worker) {
  run_threads(std::vector<std::function<void()>>(static_cast<std::size_t>(threads < 1 ? 1 : threads), worker));
}

}  // namespace ptxcts
