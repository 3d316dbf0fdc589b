#include "kinds/mma/mma_check.hpp"

#include <fmt/format.h>

#include <map>

#include "kinds/mma/mma_semantics.hpp"

namespace ptxcts {
namespace {

std::string place(const MmaInfo& x, const ElementPos& p) {
  return x.computations > 1 ? fmt::format("row {} col {} of computation {}", p.row, p.col, p.matrix + 1)
                            : fmt::format("row {} col {}", p.row, p.col);
}

// Every mismatch is counted; only the lines kept (the first max_lines) are written out.
struct MmaNotes {
  Comparison& c;
  std::size_t max_lines;
  template <typename Line>
  void note(Line&& line) {
    ++c.mismatches;
    if (c.diff.size() < max_lines) c.diff.push_back(line());
  }
};

// One warp: a, b and c (and mma.sp's e) must come back unchanged; each element of d named by lane, register, row and
// column, and, where only one place of d holds the value it got, whose value that is.
void check_mma_warp(const MmaInfo& x, int w, const std::uint32_t* want, const std::uint32_t* got, int stride,
                    MmaNotes& notes) {
  // Where each value of d belongs (made for the warp's first line that is written out).
  std::map<std::uint64_t, std::pair<int, ElementPos>> owner;
  std::map<std::uint64_t, int> count;
  auto find_owners = [&] {
    if (!owner.empty()) return;
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int e = 0; e < x.d.elements(); ++e) {
        const std::uint64_t v = x.d.get(want + lane * stride, e);
        ++count[v];
        owner[v] = {lane, x.d.of(lane, e)};
      }
  };
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (const MmaOperandInfo* o : {&x.a, &x.b, &x.c})
      for (int k = 0; k < o->words(); ++k) {
        const std::size_t at = static_cast<std::size_t>(lane * stride + o->first_word + k);
        if (want[at] != got[at])
          notes.note([&] {
            return fmt::format("warp {} lane {} operand {} word {}: changed from 0x{:08x} to 0x{:08x} (an input)", w,
                               lane, o->name, k, want[at], got[at]);
          });
      }
    if (const std::size_t at = static_cast<std::size_t>(lane * stride + x.sparse.e_word);
        x.sparse.chunk && want[at] != got[at])
      notes.note([&] {
        return fmt::format("warp {} lane {} operand e (metadata): changed from 0x{:08x} to 0x{:08x} (an input)", w,
                           lane, want[at], got[at]);
      });
    for (int e = 0; e < x.d.elements(); ++e) {
      const std::uint64_t ev = x.d.get(want + lane * stride, e), av = x.d.get(got + lane * stride, e);
      if (ev == av) continue;
      notes.note([&] {
        find_owners();
        std::string whose;
        if (auto it = owner.find(av); it != owner.end() && count[av] == 1)
          whose = fmt::format(" (the value of lane {}'s {})", it->second.first, place(x, it->second.second));
        const int digits = (x.d.format->bits + 3) / 4;
        return fmt::format("warp {} lane {} d{} (register {}), {}: expected {} (0x{:0{}x}), got {} (0x{:0{}x}){}", w,
                           lane, e, e / x.d.per_register, place(x, x.d.of(lane, e)), element_value(*x.d.format, ev), ev,
                           digits, element_value(*x.d.format, av), av, digits, whose);
      });
    }
    // Bits of d's registers outside its elements (container padding) are the instruction's: not checked.
  }
}

}  // namespace

Comparison check_mma(const MmaInfo& x, const LaunchInput& input, const LaunchState& actual, std::size_t max_lines) {
  Comparison c;
  MmaNotes notes{c, max_lines};
  const LaunchState expected = mma_expected(x, input);
  if (actual.regs.size() != expected.regs.size()) {
    notes.note([&] {
      return fmt::format("the device returned {} register words; expected {}", actual.regs.size(),
                         expected.regs.size());
    });
    return c;
  }
  const int stride = input.shape.regs;
  for (int w = 0; w < input.shape.warps; ++w)
    check_mma_warp(x, w, expected.regs.data() + static_cast<std::size_t>(w * kWarpLanes * stride),
                   actual.regs.data() + static_cast<std::size_t>(w * kWarpLanes * stride), stride, notes);
  return c;
}

}  // namespace ptxcts
