#include "kinds/wmma/wmma_case_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "kinds/wmma/wmma_cases.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_semantics.hpp"
#include "spec/layout.hpp"

namespace ptxcts {
namespace {

// The launch's warps and tiles: the case set's, except for single loads of elements narrower than
// 16 bits, which spread each element's index over the warps as digits (see make_wmma_input) and so
// may need more warps, with smaller tiles to stay within the 48 KiB of shared memory.
struct Geometry {
  int warps = 0, tile_bytes = 0, regions = 0;
  int region_bytes() const { return tile_bytes / regions; }
};
constexpr int kSharedBytes = 48 * 1024;

// Where step k's matrix starts in a warp's tile, and its stride in elements.
struct Placement {
  std::uint32_t offset = 0;
  std::uint32_t stride = 0;
};

Placement place(const Geometry& g, const CaseSpec& c, const KernelPlan& k, std::size_t step) {
  const Instance& inst = *k.steps[step];
  if (inst.variant().semantics_as<WmmaMma>()) return {};
  WmmaMatrixInfo m = wmma_matrix_info(inst);
  const int bits = m.format->bits;
  const int default_bytes = m.default_stride() * bits / 8;
  int stride_bytes = default_bytes;
  // Wider than the default by at least 16 bytes, keeping rows (or columns) 16-byte aligned.
  const int unit = std::max(m.alignment(), 16);
  if (wmma_case_options(c).wide_stride) stride_bytes = (default_bytes + unit - 1) / unit * unit + unit;
  // Below the default (undefined): the largest stride that keeps every row aligned to the fragment
  // size, so that the stride is the one rule broken (0 where the default is one alignment unit).
  if (wmma_case_options(c).below_default_stride) stride_bytes = (default_bytes - 1) / m.alignment() * m.alignment();
  if (c.fault == Fault::MisalignedStride) stride_bytes = default_bytes + m.alignment() / 2;
  if (c.fault == Fault::MinimalAlignmentStride) stride_bytes = default_bytes + m.alignment();
  Placement p;
  p.offset = static_cast<std::uint32_t>(wmma_kernel(k).bindings[step].region * g.region_bytes());
  if (c.fault == Fault::Misaligned) p.offset += static_cast<std::uint32_t>(m.alignment() / 2);
  if (c.fault == Fault::MinimalAlignmentAddress) p.offset += static_cast<std::uint32_t>(m.alignment());
  p.stride = static_cast<std::uint32_t>(stride_bytes * 8 / bits);
  const long long extent = (static_cast<long long>(m.leading_count() - 1) * p.stride + m.default_stride()) * bits / 8;
  if (p.offset % static_cast<std::uint32_t>(g.region_bytes()) + extent > g.region_bytes())
    throw std::runtime_error(fmt::format("step {} ({}): the matrix needs {} bytes at stride {}; a region has {}", step,
                                         inst.id(), extent, p.stride, g.region_bytes()));
  return p;
}

// A single wmma.load of elements narrower than 16 bits: its elements cannot all be told apart by
// value, so each warp's copy of the matrix holds one digit of every element's storage index.
bool digit_data(const KernelPlan& k) {
  return k.steps.size() == 1 && k.steps[0]->variant().operation == kWmmaLoad &&
         wmma_matrix_info(*k.steps[0]).format->bits < 16;
}

// Bits of the largest storage index of the matrix's elements (at its stride), plus one, so that the
// all-ones digits (the poison in the registers) are no element's.
int index_bits(const WmmaMatrixInfo& m, std::uint32_t stride) {
  const long long last = m.bit_offset(m.rows - 1, m.cols - 1, stride) / m.format->bits;
  int b = 0;
  while ((1LL << b) <= last) ++b;
  return b + 1;
}

Geometry geometry(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) {
  const WmmaCaseSettings& ws = wmma_case_settings(set);
  Geometry g{.warps = ws.warps, .tile_bytes = ws.tile_bytes, .regions = ws.regions};
  if (!digit_data(k)) return g;
  const WmmaMatrixInfo m = wmma_matrix_info(*k.steps[0]);
  const int bits = m.format->bits;
  const int warps = (index_bits(m, place(g, c, k, 0).stride) + bits - 1) / bits;
  if (warps <= g.warps) return g;
  const int unit = 256 * g.regions;  // regions stay multiples of 256 bytes
  g.warps = warps;
  g.tile_bytes = std::min(g.tile_bytes, kSharedBytes / warps / unit * unit);
  if (g.tile_bytes < unit)
    throw std::runtime_error(fmt::format("{}: {} warps of digits do not fit in shared memory", k.name, warps));
  return g;
}

// A value every format holds exactly and products and sums of which stay exact.
std::uint64_t random_value(const ElementFormat& f, std::mt19937_64& rng, bool overflow) {
  auto pick = [&](int lo, int hi) { return static_cast<double>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  if (f.kind == ElementKind::Float) return element_encode(f, f.bits == 64 ? pick(-16, 16) / 4.0 : pick(-3, 3));
  if (f.name == "s32") {
    if (!overflow) return element_encode(f, pick(-1000, 1000));
    const double near = 2147483647.0 - pick(0, 4000);  // within reach of the limits
    return element_encode(f, std::uniform_int_distribution<int>(0, 1)(rng) ? near : -near - 1);
  }
  return rng() & element_mask(f);
}

// Unique bit patterns of finite numbers (16 bits and wider), for n < 2^14 (0x2000 + n stays below
// the f16/bf16 infinities); narrower elements get unique 32-bit words.
std::uint64_t unique_value(const ElementFormat& f, std::uint64_t n) {
  switch (f.bits) {
    case 16: return 0x2000 + n;
    case 32: return 0x3F800000u + (n << 13);
    case 64: return 0x3FF0000000000000ull + (n << 32);
    default: return 0;
  }
}
constexpr std::uint64_t kRegisterValues = 0x5000;  // registers in: unique values above any the tiles hold

// What fragment registers hold before a load fills them: no value the case data uses (NaN for the
// floats; for s32 far from the random and overflow ranges; all ones for narrow elements, whose
// digits no element has). A device that does not write the registers is caught by it.
std::uint64_t poison(const ElementFormat& f) {
  switch (f.bits) {
    case 16: return 0x7FFF;
    case 32: return 0x7FC0DEADu;
    case 64: return 0x7FF8DEAD7FF8DEADull;
    default: return element_mask(f);
  }
}

// The format each region holds: that of the first step working there.
const ElementFormat* region_format(const KernelPlan& k, int region) {
  for (std::size_t s = 0; s < k.steps.size(); ++s)
    if (wmma_kernel(k).bindings[s].region == region && k.steps[s]->variant().semantics_as<WmmaMatrix>())
      return wmma_matrix_info(*k.steps[s]).format;
  return nullptr;
}

// Whether wmma.mma reads what region `region` holds (its data must keep products exact).
bool feeds_mma(const KernelPlan& k, int region) {
  for (std::size_t l = 0; l < k.steps.size(); ++l) {
    if (wmma_kernel(k).bindings[l].region != region || k.steps[l]->variant().operation != kWmmaLoad) continue;
    for (std::size_t s = 0; s < k.steps.size(); ++s)
      if (k.steps[s]->variant().semantics_as<WmmaMma>())
        for (std::size_t o = 1; o < wmma_kernel(k).bindings[s].fragments.size(); ++o)
          if (wmma_kernel(k).bindings[s].fragments[o] == wmma_kernel(k).bindings[l].fragments[0]) return true;
  }
  return false;
}

// Whether the kernel's first use of fragment `f` writes it (a load, or wmma.mma's D).
bool written_first(const KernelPlan& k, int f) {
  for (std::size_t s = 0; s < k.steps.size(); ++s) {
    const auto& fr = wmma_kernel(k).bindings[s].fragments;
    if (std::find(fr.begin(), fr.end(), f) == fr.end()) continue;
    return fr[0] == f &&
           (k.steps[s]->variant().operation == kWmmaLoad || k.steps[s]->variant().semantics_as<WmmaMma>());
  }
  return false;
}

// Distinct values in random order, from a random start (floats: finite, exact).
class DistinctValues {
 public:
  DistinctValues(const ElementFormat& f, std::size_t count, std::mt19937_64& rng) : f_(f), order_(count) {
    for (std::size_t n = 0; n < count; ++n) order_[n] = n;
    std::shuffle(order_.begin(), order_.end(), rng);
    start_ = std::uniform_int_distribution<std::uint64_t>(0, 1024)(rng);
  }
  std::uint64_t operator[](std::size_t n) const { return unique_value(f_, start_ + order_[n]); }

 private:
  const ElementFormat& f_;
  std::vector<std::uint64_t> order_;
  std::uint64_t start_ = 0;
};

}  // namespace

std::vector<int> wmma_fragment_words(const KernelPlan& k) {
  int words32 = 0;
  for (auto const& f : wmma_kernel(k).fragments) words32 += f.wide ? 0 : f.registers;
  std::vector<int> out;
  int next32 = 0, next64 = 0;
  for (auto const& f : wmma_kernel(k).fragments) {
    out.push_back(f.wide ? words32 + 2 * next64 : next32);
    (f.wide ? next64 : next32) += f.registers;
  }
  return out;
}

namespace {

// Lanes 16 to 31 of every warp give another p (the next region's start) or another stride (the wide
// one) than lanes 0 to 15 (undefined: "the same values of p and stride"); the model reads lane 0's.
void write_upper_lanes(LaunchInput& in, const Geometry& g, const CaseSpec& c, const KernelPlan& k) {
  using Lanes = WmmaCaseOptions::Lanes;
  const Lanes lanes = wmma_case_options(c).upper_lanes;
  if (lanes == Lanes::Same) return;
  const int steps = static_cast<int>(k.steps.size()), threads = in.shape.threads();
  CaseSpec wide = c;
  WmmaCaseOptions wide_stride;
  wide_stride.wide_stride = true;
  wide.options = wide_stride;
  for (int s = 0; s < steps; ++s) {
    const Placement other = place(g, wide, k, static_cast<std::size_t>(s));
    for (int t = 0; t < threads; ++t) {
      if (t % kWarpLanes < kWarpLanes / 2) continue;
      if (lanes == Lanes::OtherAddress)
        in.offsets[static_cast<std::size_t>(s * threads + t)] += static_cast<std::uint32_t>(g.region_bytes());
      else
        in.offsets[static_cast<std::size_t>((steps + s) * threads + t)] = other.stride;
    }
  }
}

// Each step's matrix placement, as the kernel reads it: a row of addresses, then a row of strides,
// one per thread.
std::vector<Placement> write_offsets(LaunchInput& in, const Geometry& g, const CaseSpec& c, const KernelPlan& k) {
  const int steps = static_cast<int>(k.steps.size()), threads = in.shape.threads();
  std::vector<Placement> where;
  for (int s = 0; s < steps; ++s) where.push_back(place(g, c, k, static_cast<std::size_t>(s)));
  in.offsets.assign(static_cast<std::size_t>(in.shape.steps * threads), 0);
  for (int s = 0; s < steps; ++s)
    for (int t = 0; t < threads; ++t) {
      in.offsets[static_cast<std::size_t>(s * threads + t)] = where[static_cast<std::size_t>(s)].offset;
      in.offsets[static_cast<std::size_t>((steps + s) * threads + t)] = where[static_cast<std::size_t>(s)].stride;
    }
  write_upper_lanes(in, g, c, k);
  return where;
}

// The region wmma.mma's C operand is loaded from (-1: none): where overflow cases put their large values.
int c_region_of(const KernelPlan& k) {
  const int steps = static_cast<int>(k.steps.size());
  int c_region = -1;
  for (int s = 0; s < steps; ++s) {
    const WmmaBinding& mma = wmma_kernel(k).bindings[static_cast<std::size_t>(s)];
    if (!k.steps[static_cast<std::size_t>(s)]->variant().semantics_as<WmmaMma>()) continue;
    for (int l = 0; l < steps; ++l)
      if (wmma_kernel(k).bindings[static_cast<std::size_t>(l)].fragments[0] == mma.fragments[3] &&
          k.steps[static_cast<std::size_t>(l)]->variant().operation == kWmmaLoad)
        c_region = wmma_kernel(k).bindings[static_cast<std::size_t>(l)].region;
  }
  return c_region;
}

// Whether some load reads region `region`.
bool loaded_from(const KernelPlan& k, int region) {
  bool loaded = false;
  for (std::size_t s = 0; s < k.steps.size(); ++s)
    loaded = loaded || (wmma_kernel(k).bindings[s].region == region && k.steps[s]->variant().operation == kWmmaLoad);
  return loaded;
}

// What the matrices in shared memory are filled with.
struct MatrixFill {
  const Geometry& g;
  const CaseSpec& c;
  const KernelPlan& k;
  std::uint64_t scramble = 0;  // digit data of random cases: the index scrambled by a seeded mask
  int c_region = -1;
};

// One region of warp w's tile, `n` elements of format f from `base`.
void fill_region(LaunchInput& in, const MatrixFill& mf, int w, int region, const ElementFormat& f, std::size_t base,
                 std::mt19937_64& rng) {
  const int rb = mf.g.region_bytes(), n = rb * 8 / f.bits;
  const bool unique = mf.c.data == DataKind::Unique;
  if (digit_data(mf.k)) {
    for (int e = 0; e < n; ++e)
      write_bits(in.state.smem, base, static_cast<long long>(e) * f.bits, f.bits,
                 ((static_cast<std::uint64_t>(e) ^ mf.scramble) >> (w * f.bits)) & element_mask(f));
    return;
  }
  if (unique && f.bits < 16) {  // unique words
    for (int word = 0; word < rb / 4; ++word)
      write_bits(in.state.smem, base, word * 32LL, 32,
                 (static_cast<std::uint64_t>(w * 16 + region) << 24) | static_cast<std::uint64_t>(word + 1));
    return;
  }
  // Random data that no wmma.mma reads is distinct too, so that registers holding the wrong
  // elements cannot pass for the right ones; what wmma.mma reads keeps its products exact.
  const bool exact = feeds_mma(mf.k, region) || f.bits < 16;
  const DistinctValues distinct(f, exact || unique ? 0 : static_cast<std::size_t>(n), rng);
  for (int e = 0; e < n; ++e)
    write_bits(in.state.smem, base, static_cast<long long>(e) * f.bits, f.bits,
               unique  ? unique_value(f, static_cast<std::uint64_t>((w * mf.g.regions + region) * n + e))
               : exact ? random_value(f, rng, wmma_case_options(mf.c).overflow && region == mf.c_region)
                       : distinct[static_cast<std::size_t>(e)]);
}

// Matrix data where the loads read: whole regions, in the format of the step that reads them.
// Overflow cases put their large values where wmma.mma's C operand is loaded from.
void fill_matrices(LaunchInput& in, const Geometry& g, const CaseSpec& c, const KernelPlan& k,
                   const std::vector<Placement>& where, std::mt19937_64& rng) {
  MatrixFill mf{.g = g, .c = c, .k = k, .scramble = 0, .c_region = c_region_of(k)};
  // Narrow single loads: digit w (of `bits` bits) of each element's storage index (random cases:
  // the index scrambled by a seeded mask below its top bit), so that an element is told by its
  // values across the warps.
  if (digit_data(k)) {
    const WmmaMatrixInfo m = wmma_matrix_info(*k.steps[0]);
    if (c.data != DataKind::Unique)
      mf.scramble = rng() & ((std::uint64_t{1} << (index_bits(m, where[0].stride) - 1)) - 1);
  }
  for (int w = 0; w < g.warps; ++w)
    for (int region = 0; region < g.regions; ++region) {
      const ElementFormat* f = region_format(k, region);
      if (!f || !loaded_from(k, region)) continue;
      fill_region(in, mf, w, region, *f, static_cast<std::size_t>(w * g.tile_bytes + region * g.region_bytes()), rng);
    }
}

// The format of fragment fi: that of the last step that writes it and names a matrix (nullptr: none).
const ElementFormat* fragment_format(const KernelPlan& k, std::size_t fi) {
  const ElementFormat* f = nullptr;
  for (std::size_t s = 0; s < k.steps.size(); ++s)
    if (wmma_kernel(k).bindings[s].fragments[0] == static_cast<int>(fi) &&
        k.steps[s]->variant().semantics_as<WmmaMatrix>())
      f = wmma_matrix_info(*k.steps[s]).format;
  return f;
}

// Fragment fi's registers in, every thread's, from its word `first` on.
void fill_fragment(LaunchInput& in, const CaseSpec& c, const KernelPlan& k, std::size_t fi, const ElementFormat& f,
                   int first, std::mt19937_64& rng) {
  const int threads = in.shape.threads();
  const bool poisoned = written_first(k, static_cast<int>(fi));
  const int words = wmma_kernel(k).fragments[fi].registers * (wmma_kernel(k).fragments[fi].wide ? 2 : 1);
  const int per_word = f.bits == 64 ? 1 : 32 / f.bits;
  const std::size_t count = static_cast<std::size_t>(threads * (f.bits == 64 ? words / 2 : words * per_word));
  const DistinctValues distinct(f, poisoned || c.data == DataKind::Unique ? 0 : count, rng);
  std::uint64_t n = 0;
  auto next = [&] {
    const std::uint64_t v = poisoned                     ? poison(f)
                            : c.data == DataKind::Unique ? unique_value(f, kRegisterValues + n)
                                                         : distinct[static_cast<std::size_t>(n)];
    ++n;
    return v;
  };
  for (int t = 0; t < threads; ++t) {
    const std::size_t at = static_cast<std::size_t>(t * in.shape.regs + first);
    if (f.bits == 64) {
      for (int r = 0; r + 1 < words; r += 2) {
        const std::uint64_t v = next();
        in.state.regs[at + static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(v);
        in.state.regs[at + static_cast<std::size_t>(r) + 1] = static_cast<std::uint32_t>(v >> 32);
      }
    } else {
      for (int r = 0; r < words; ++r) {
        std::uint32_t word = 0;
        for (int i = 0; i < per_word; ++i) word |= static_cast<std::uint32_t>(next() << (i * f.bits));
        in.state.regs[at + static_cast<std::size_t>(r)] = word;
      }
    }
  }
}

// Fragment registers in: poison where the kernel writes the fragment before reading it; values
// (unique, or distinct random) where a store writes registers that came from outside the kernel.
void fill_registers(LaunchInput& in, const CaseSpec& c, const KernelPlan& k, std::mt19937_64& rng) {
  in.state.regs.assign(static_cast<std::size_t>(in.shape.threads() * in.shape.regs), 0);
  const std::vector<int> first = wmma_fragment_words(k);
  for (std::size_t fi = 0; fi < wmma_kernel(k).fragments.size(); ++fi)
    if (const ElementFormat* f = fragment_format(k, fi)) fill_fragment(in, c, k, fi, *f, first[fi], rng);
}

}  // namespace

LaunchInput make_wmma_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) {
  LaunchInput in;
  const Geometry g = geometry(set, c, k);
  in.shape.warps = g.warps;
  in.shape.tile_bytes = g.tile_bytes;
  in.shape.steps = 2 * static_cast<int>(k.steps.size());  // a row of addresses, then a row of strides, per step
  for (auto const& f : wmma_kernel(k).fragments) in.shape.regs += f.registers * (f.wide ? 2 : 1);
  std::mt19937_64 rng(c.seed * 1000003u + 17);
  in.state.smem.resize(static_cast<std::size_t>(g.warps * g.tile_bytes));
  // Background: whatever is not a matrix stays as it was. Eight bytes a draw (a draw a byte was a
  // tenth of a whole-suite run on the fake device).
  for (std::size_t b = 0; b < in.state.smem.size(); b += 8) {
    const std::uint64_t bytes = rng();
    for (std::size_t i = 0; i < 8 && b + i < in.state.smem.size(); ++i)
      in.state.smem[b + i] = static_cast<std::uint8_t>(bytes >> (8 * i));
  }
  const std::vector<Placement> where = write_offsets(in, g, c, k);
  fill_matrices(in, g, c, k, where, rng);
  fill_registers(in, c, k, rng);
  return in;
}

}  // namespace ptxcts
