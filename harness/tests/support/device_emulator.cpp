#include "support/device_emulator.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace ptxcts::test {
namespace {

std::vector<KindEmulator>& kind_emulators() {
  static std::vector<KindEmulator> emulators;
  return emulators;
}

// The first 32-bit word that differs moves one word on; its own place keeps what it had.
void move_first_change(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& before) {
  for (std::size_t at = 0; at + 8 <= out.size(); at += 4)
    if (!std::equal(out.begin() + static_cast<std::ptrdiff_t>(at), out.begin() + static_cast<std::ptrdiff_t>(at + 4),
                    before.begin() + static_cast<std::ptrdiff_t>(at))) {
      std::copy_n(out.begin() + static_cast<std::ptrdiff_t>(at), 4, out.begin() + static_cast<std::ptrdiff_t>(at + 4));
      std::copy_n(before.begin() + static_cast<std::ptrdiff_t>(at), 4, out.begin() + static_cast<std::ptrdiff_t>(at));
      return;
    }
}

void move_first_change(std::vector<std::uint32_t>& out, const std::vector<std::uint32_t>& before) {
  for (std::size_t at = 0; at < out.size(); ++at)
    if (out[at] != before[at]) {
      const std::size_t to = at + 1 < out.size() ? at + 1 : at - 1;
      out[to] = out[at];
      out[at] = before[at];
      return;
    }
}

}  // namespace

// Each lane's registers go to the previous lane of its warp (lane i gets lane i+1's), or back.
void rotate_lanes(LaunchState& s, const LaunchShape& shape, bool back) {
  const std::size_t regs = static_cast<std::size_t>(shape.regs);
  for (int w = 0; w < shape.warps; ++w) {
    auto first = s.regs.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(w * kWarpLanes) * regs);
    auto last = first + static_cast<std::ptrdiff_t>(kWarpLanes * regs);
    std::rotate(first, back ? last - static_cast<std::ptrdiff_t>(regs) : first + static_cast<std::ptrdiff_t>(regs),
                last);
  }
}

bool add_kind_emulator(KindEmulator emulator) {
  kind_emulators().push_back(std::move(emulator));
  return true;
}

Mutant mutant_from_string(const std::string& s) {
  std::vector<std::pair<std::string, Mutant>> names = {{"model", Mutant::None},          {"echo", Mutant::Echo},
                                                       {"zero", Mutant::Zero},           {"shuffled", Mutant::Shuffled},
                                                       {"off-by-one", Mutant::OffByOne}, {"stale", Mutant::Stale}};
  for (auto const& e : kind_emulators()) names.insert(names.end(), e.mutants.begin(), e.mutants.end());
  std::vector<std::string> known;
  for (auto const& [name, mutant] : names) {
    if (name == s) return mutant;
    known.push_back(name);
  }
  known.back() = "or " + known.back();
  throw std::invalid_argument("unknown device mode '" + s + "'; expected " +
                              fmt::format("{}", fmt::join(known.begin(), known.end() - 1, ", ")) + " " + known.back());
}

LaunchState DeviceEmulator::correct(const KernelPlan& k, const LaunchInput& in, bool shuffle, Mutant relabel) {
  for (auto const& e : kind_emulators())
    if (e.kind == k.kind) return e.run(k, in, shuffle, relabel);
  throw std::logic_error("emulator: no kind emulator runs kernel " + k.name);
}

LaunchState DeviceEmulator::run(const KernelPlan& k, const LaunchInput& in, Mutant mutant) {
  switch (mutant) {
    case Mutant::Echo: return in.state;
    case Mutant::Zero:
      return {std::vector<std::uint8_t>(in.state.smem.size()), std::vector<std::uint32_t>(in.state.regs.size())};
    case Mutant::Shuffled: return correct(k, in, true);
    case Mutant::OffByOne: {
      LaunchState out = correct(k, in, false);
      if (out.smem != in.state.smem) move_first_change(out.smem, in.state.smem);
      else move_first_change(out.regs, in.state.regs);
      return out;
    }
    case Mutant::Stale: {
      LaunchState now = correct(k, in, false);
      LaunchState out = has_previous_ ? previous_ : in.state;
      out.smem.resize(in.state.smem.size());
      out.regs.resize(in.state.regs.size());
      previous_ = std::move(now);
      has_previous_ = true;
      return out;
    }
    case Mutant::PermuteM:
    case Mutant::PermuteN:
    case Mutant::PermuteK:
    case Mutant::PermuteAM:
    case Mutant::PermuteDM: return correct(k, in, false, mutant);
    case Mutant::None: break;
  }
  return correct(k, in, false);
}

}  // namespace ptxcts::test
