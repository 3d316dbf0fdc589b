#include "kinds/mma/mma_numbers_check.hpp"

#include <fmt/format.h>

#include <map>

#include "kinds/mma/mma_case_data.hpp"
#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/mma/mma_sparse.hpp"

namespace ptxcts {
namespace {

using Expect = NumberExpectation;

bool allowed(const Expect& e, const ElementFormat& f, std::uint64_t got) {
  if (e.judged == Expect::Judged::Any) return true;
  for (auto const& m : e.members)
    if (m.bits == got) return true;
  if (e.judged != Expect::Judged::Range || !e.interval) return false;
  const auto v = static_cast<std::int64_t>(element_value(f, got));
  return v >= e.lo && v <= e.hi;
}

// What the returned value says: the member's meaning, or the value's own name.
std::string meaning(const Expect& e, const ElementFormat& f, std::uint64_t got) {
  for (auto const& m : e.members)
    if (m.bits == got) return m.meaning;
  const double v = element_value(f, got);
  if (v != v) return "NaN";
  if (e.interval && allowed(e, f, got)) return "another value in the range (partial sums clamped in another order)";
  return fmt::format("another value, {}", v);
}

std::string value_text(const ElementFormat& f, std::uint64_t bits) {
  return fmt::format("{} (0x{:0{}x})", element_value(f, bits), bits, (f.bits + 3) / 4);
}

std::string wanted(const Expect& e, const ElementFormat& f) {
  if (e.judged == Expect::Judged::Exact) return value_text(f, e.members.front().bits);
  if (e.interval) return fmt::format("a value from {} to {}", e.lo, e.hi);
  std::string out = "one of";
  for (auto const& m : e.members) out += " " + value_text(f, m.bits);
  return out;
}

// Per group of warp 0's elements that the documents leave open: how many gave each meaning, and one
// example (the first element that gave it).
struct Seen {
  std::map<std::string, int> count;
  std::map<std::string, std::string> example;
  std::vector<std::string> order;
  int total = 0;
};

std::string observation(const NumbersDesign& d, const std::map<int, Seen>& seen) {
  std::string out;
  for (auto const& [group, s] : seen) {
    std::string parts;
    for (auto const& m : s.order)
      parts += fmt::format("{}{} of {}: {} (e.g. {})", parts.empty() ? "" : "; ", s.count.at(m), s.total, m,
                           s.example.at(m));
    out += fmt::format("{}{}: {}", out.empty() ? "" : " | ", d.groups[static_cast<std::size_t>(group)], parts);
  }
  return out;
}

// One warp: inputs unchanged, each element of d as its expectation allows; warp 0's open elements seen.
void check_warp(const MmaInfo& x, const NumbersDesign& d, int w, const std::uint32_t* want, const std::uint32_t* got,
                int stride, Comparison& c, std::size_t max_lines, std::map<int, Seen>* seen) {
  auto note = [&](std::string line) {
    ++c.mismatches;
    if (c.diff.size() < max_lines) c.diff.push_back(std::move(line));
  };
  const ElementFormat& f = *x.d.format;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int k = 0; k < x.d.first_word; ++k)  // a, b and c come first in a thread's words
      if (want[lane * stride + k] != got[lane * stride + k])
        note(fmt::format("warp {} lane {} word {}: an input changed from 0x{:08x} to 0x{:08x}", w, lane, k,
                         want[lane * stride + k], got[lane * stride + k]));
    if (const int e = lane * stride + x.sparse.e_word; x.sparse.chunk && want[e] != got[e])
      note(fmt::format("warp {} lane {} operand e (metadata): changed from 0x{:08x} to 0x{:08x} (an input)", w, lane,
                       want[e], got[e]));
    for (int e = 0; e < x.d.elements(); ++e) {
      const ElementPos& p = x.d.of(lane, e);
      const Expect& ex = d.d[static_cast<std::size_t>(p.matrix)][static_cast<std::size_t>(p.row * x.n + p.col)];
      const std::uint64_t v = x.d.get(got + lane * stride, e);
      if (!allowed(ex, f, v)) {
        note(fmt::format("warp {} lane {} d{}, row {} col {}: expected {}, got {} ({})", w, lane, e, p.row, p.col,
                         wanted(ex, f), value_text(f, v), d.groups[static_cast<std::size_t>(ex.group)]));
        continue;
      }
      if (!seen || ex.judged == Expect::Judged::Exact) continue;
      Seen& s = (*seen)[ex.group];
      const std::string m = meaning(ex, f, v);
      ++s.total;
      if (s.count[m]++ == 0) {
        s.order.push_back(m);
        s.example[m] = fmt::format("row {} col {}: {}", p.row, p.col, value_text(f, v));
      }
    }
  }
}

}  // namespace

LaunchInput make_numbers_input(const CaseSet& set, const MmaInfo& x, const NumbersDesign& design) {
  LaunchInput in;
  in.shape = {.warps = mma_case_settings(set).warps, .tile_bytes = 16, .steps = 1, .regs = x.words};
  in.offsets.assign(static_cast<std::size_t>(in.shape.threads()), 0);
  in.state.smem.assign(static_cast<std::size_t>(in.shape.warps * in.shape.tile_bytes), 0);
  in.state.regs.assign(static_cast<std::size_t>(in.shape.threads() * x.words), kMmaPoison);
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = in.state.regs.data() + static_cast<std::size_t>(w * kWarpLanes * x.words);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int k = 0; k < x.d.first_word; ++k) warp[lane * x.words + k] = 0;
    mma_place(x.a, design.a, warp, x.words);
    mma_place(x.b, design.b, warp, x.words);
    mma_place(x.c, design.c, warp, x.words);
    if (x.sparse.chunk) write_sparse_metadata(x, design.fields, warp, x.words);
  }
  return in;
}

CaseOutcome check_numbers(const MmaInfo& x, const NumbersDesign& design, const LaunchInput& input,
                          const LaunchState& actual, std::size_t max_lines) {
  CaseOutcome out;
  if (actual.regs.size() != input.state.regs.size()) {
    out.comparison.mismatches = 1;
    out.comparison.diff.push_back(
        fmt::format("the device returned {} register words; expected {}", actual.regs.size(), input.state.regs.size()));
    return out;
  }
  std::map<int, Seen> seen;
  const int stride = input.shape.regs;
  for (int w = 0; w < input.shape.warps; ++w) {
    const std::size_t at = static_cast<std::size_t>(w * kWarpLanes * stride);
    check_warp(x, design, w, input.state.regs.data() + at, actual.regs.data() + at, stride, out.comparison, max_lines,
               w == 0 ? &seen : nullptr);
  }
  if (out.comparison.mismatches == 0) out.observed = observation(design, seen);
  return out;
}

}  // namespace ptxcts
