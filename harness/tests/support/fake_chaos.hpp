// Seeded faults of the fake device runner, for the chaos soak (harness/tests/chaos).
//
// PTXCTS_FAKE_CHAOS=SEED:RATE[:KIND+KIND...] makes a launch fault with probability RATE (0..1),
// chosen by a hash of the seed and the launch's label ("kernel/case") alone: the same cases fault
// in every runner start and in every run of one seed (a batch run again one launch at a time
// faults again at the same case), and the kind is drawn from the KINDs (default: all of them):
//   crash    the runner dies at the launch (SIGABRT, or exit 1)
//   hang     the runner never finishes the launch and prints nothing
//   chatty   the runner never finishes the launch but prints "loading" twice a second (alive, no
//            progress: only an overall limit ends it)
//   garbage  the launch's record in the results file is random bytes (a broken protocol); the
//            runner goes on as if it had written it
//   noise    junk lines on stdout (random bytes, one of 64 KiB) before the launch, which then runs
// PTXCTS_FAKE_CHAOS_LOG=FILE: each fault is appended as "KIND LABEL" before it happens, so that the
// soak knows which cases were hit (it does not recompute the hash).
#pragma once

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace ptxcts::test {

enum class ChaosFault { None, Crash, Hang, Chatty, Garbage, Noise };

inline const char* to_string(ChaosFault f) {
  switch (f) {
    case ChaosFault::Crash: return "crash";
    case ChaosFault::Hang: return "hang";
    case ChaosFault::Chatty: return "chatty";
    case ChaosFault::Garbage: return "garbage";
    case ChaosFault::Noise: return "noise";
    case ChaosFault::None: break;
  }
  return "none";
}

class Chaos {
 public:
  // nullopt without PTXCTS_FAKE_CHAOS; throws std::invalid_argument on a malformed value.
  static std::optional<Chaos> from_env() {
    const char* v = std::getenv("PTXCTS_FAKE_CHAOS");
    if (!v || !*v) return std::nullopt;
    Chaos c;
    std::istringstream in(v);
    std::string seed, rate, kinds;
    std::getline(in, seed, ':');
    std::getline(in, rate, ':');
    std::getline(in, kinds);
    try {
      c.seed_ = std::stoull(seed);
      c.rate_ = std::stod(rate);
    } catch (const std::exception&) {
      throw std::invalid_argument("PTXCTS_FAKE_CHAOS: expected SEED:RATE[:KIND+KIND...], got '" + std::string(v) + "'");
    }
    std::istringstream names(kinds.empty() ? "crash+hang+chatty+garbage+noise" : kinds);
    for (std::string k; std::getline(names, k, '+');) {
      ChaosFault f = ChaosFault::None;
      for (auto each : {ChaosFault::Crash, ChaosFault::Hang, ChaosFault::Chatty, ChaosFault::Garbage, ChaosFault::Noise})
        if (k == to_string(each)) f = each;
      if (f == ChaosFault::None) throw std::invalid_argument("PTXCTS_FAKE_CHAOS: unknown fault '" + k + "'");
      c.kinds_.push_back(f);
    }
    return c;
  }

  // FNV-1a of "SEED/LABEL": the launch's own random number.
  std::uint64_t hash(const std::string& label) const {
    std::uint64_t h = 1469598103934665603ull;
    for (char ch : std::to_string(seed_) + "/" + label) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    return h;
  }

  ChaosFault at(const std::string& label) const {
    const std::uint64_t h = hash(label);
    if (static_cast<double>(h % 1000000) >= rate_ * 1e6) return ChaosFault::None;
    return kinds_[(h / 1000000) % kinds_.size()];
  }

  // Says which fault comes (the soak's record), then does what happens at the launch itself:
  // crash, hang and chatty never return; noise prints its junk and returns.
  void strike(ChaosFault f, const std::string& label) const {
    if (const char* log = std::getenv("PTXCTS_FAKE_CHAOS_LOG")) {
      std::ofstream(log, std::ios::app) << to_string(f) << " " << label << "\n";
    }
    const std::uint64_t h = hash(label);
    switch (f) {
      case ChaosFault::Crash:
        if (h & (1ull << 40)) _exit(1);
        std::abort();
      case ChaosFault::Hang:
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
      case ChaosFault::Chatty:
        for (;;) {
          std::printf("loading\n");
          std::fflush(stdout);
          std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
      case ChaosFault::Noise: {
        const std::string junk = bytes(h, 200);
        std::printf("%s\n%s\n", junk.c_str(), std::string(64 << 10, 'x').c_str());
        std::fflush(stdout);
        return;
      }
      case ChaosFault::Garbage:
      case ChaosFault::None: return;
    }
  }

  // What a garbled record holds: 1 to 64 bytes from the label's hash, never starting a record ("PCR1").
  std::string garbage(const std::string& label) const {
    const std::uint64_t h = hash(label);
    std::string g = bytes(h, 1 + h % 64);
    if (g[0] == 'P') g[0] = '?';
    return g;
  }

 private:
  // `n` bytes of a xorshift stream seeded by `h`, none of them a newline or NUL (one junk line).
  static std::string bytes(std::uint64_t h, std::size_t n) {
    std::string s;
    for (std::uint64_t x = h | 1; s.size() < n;) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const char ch = static_cast<char>(x & 0xff);
      if (ch != '\n' && ch != '\0') s.push_back(ch);
    }
    return s;
  }

  std::uint64_t seed_ = 0;
  double rate_ = 0;
  std::vector<ChaosFault> kinds_;
};

}  // namespace ptxcts::test
