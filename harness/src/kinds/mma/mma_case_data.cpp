#include "kinds/mma/mma_case_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "kinds/mma/mma_cases.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/mma/mma_sparse.hpp"

namespace ptxcts {
namespace {

// The largest integer magnitude R such that K products of two values in [-R, R] plus an
// accumulator in [-64, 64] stay exact in the result type: every integer up to 2^(mantissa + 1).
int float_range(const MmaInfo& x) {
  const double exact = std::ldexp(1.0, x.d.format->mantissa_bits + 1);
  return std::clamp(static_cast<int>(std::sqrt((exact - 64) / x.k)), 1, 8);
}

// The integers in [-range, range] that the format holds exactly (for the narrow floats, a subset).
std::vector<double> exact_integers(const ElementFormat& f, int range) {
  std::vector<double> out;
  for (int v = -range; v <= range; ++v)
    if (element_value(f, element_encode(f, v)) == v) out.push_back(v);
  return out;
}

// The values an operand's elements take: the exact integers its type holds in the range that keeps
// every product and sum exact (a pool to pick from, or to spell positions with). mma.sp's A: without
// zero, so that every value the metadata places shows where it went.
std::vector<std::uint64_t> pool(const ElementFormat& f, const MmaInfo& x, bool accumulator);
std::vector<std::uint64_t> pool(const ElementFormat& f, const MmaInfo& x, bool accumulator, bool nonzero) {
  std::vector<std::uint64_t> out = pool(f, x, accumulator);
  if (nonzero) std::erase_if(out, [&](std::uint64_t v) { return element_value(f, v) == 0; });
  return out;
}

std::vector<std::uint64_t> pool(const ElementFormat& f, const MmaInfo& x, bool accumulator) {
  std::vector<std::uint64_t> out;
  if (f.kind == ElementKind::Float) {
    for (double v : exact_integers(f, accumulator ? 64 : float_range(x))) out.push_back(element_encode(f, v));
    return out;
  }
  if (f.kind == ElementKind::Bit) return {0, 1};
  const long long lo = accumulator ? -1000 : f.kind == ElementKind::Signed ? -(1LL << (f.bits - 1)) : 0;
  const long long hi = accumulator ? 1000 : f.kind == ElementKind::Signed ? (1LL << (f.bits - 1)) - 1 : (1LL << f.bits) - 1;
  for (long long v = lo; v <= hi; ++v) out.push_back(element_encode(f, static_cast<double>(v)));
  return out;
}

// Unique data: every element's position (computation, row, col) as a number, spelled in the base
// of its operand's pool, one digit per warp: any two elements differ in some warp.
int digits_needed(std::size_t base, std::size_t positions) {
  int n = 1;
  for (std::size_t reach = base; reach < positions; reach *= base) ++n;
  return n;
}

// Accumulators within reach of the 32-bit limits, so that D overflows (.satfinite clamps, else it wraps).
std::uint64_t overflowing_accumulator(std::mt19937_64& rng) {
  const long long near = (rng() & 1) ? std::numeric_limits<std::int32_t>::max() - 100
                                     : std::numeric_limits<std::int32_t>::min() + 100;
  return static_cast<std::uint64_t>(near) & 0xFFFFFFFFu;
}

}  // namespace

LaunchInput make_mma_input(const CaseSet& set, const CaseSpec& c, const MmaInfo& x) {
  LaunchInput in;
  const bool unique = c.data == DataKind::Unique;
  int warps = mma_case_settings(set).warps;
  if (unique) {
    warps = 1;
    for (const MmaOperandInfo* o : {&x.a, &x.b, &x.c})
      warps = std::max(warps, digits_needed(pool(*o->format, x, o == &x.c, o == &x.a && x.sparse.chunk).size(),
                                            static_cast<std::size_t>(x.computations * o->rows * o->cols)));
  }
  in.shape = {.warps = warps, .tile_bytes = 16, .steps = 1, .regs = x.words};
  in.offsets.assign(static_cast<std::size_t>(in.shape.steps * in.shape.threads()), 0);
  in.state.smem.assign(static_cast<std::size_t>(in.shape.warps * in.shape.tile_bytes), 0);
  in.state.regs.assign(static_cast<std::size_t>(in.shape.threads() * x.words), kMmaPoison);
  std::mt19937_64 rng(c.seed);
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = in.state.regs.data() + static_cast<std::size_t>(w * kWarpLanes * x.words);
    for (const MmaOperandInfo* o : {&x.a, &x.b, &x.c}) {
      // Containers are zero outside their element (the manual's padding), words start clean.
      for (int lane = 0; lane < kWarpLanes; ++lane)
        for (int k = 0; k < o->words(); ++k) warp[lane * x.words + o->first_word + k] = 0;
      std::vector<MatrixValues> m(
          static_cast<std::size_t>(x.computations),
          MatrixValues{.rows = o->rows,
                       .cols = o->cols,
                       .format = o->format,
                       .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(o->rows * o->cols))});
      const std::vector<std::uint64_t> values = pool(*o->format, x, o == &x.c, o == &x.a && x.sparse.chunk);
      std::size_t position = 0;
      for (auto& matrix : m)
        for (auto& bits : matrix.bits) {
          std::size_t digit = position++;
          for (int k = 0; k < w; ++k) digit /= values.size();
          bits = unique                       ? values[digit % values.size()]
                 : o == &x.c && mma_case_options(c).overflow ? overflowing_accumulator(rng)
                                             : values[rng() % values.size()];
        }
      mma_place(*o, m, warp, x.words);
    }
    if (x.sparse.chunk) fill_sparse_metadata(x, rng, warp, x.words);
    if (x.sparse.chunk && mma_case_options(c).unsorted_metadata) unsort_sparse_metadata(x, warp, x.words);
  }
  return in;
}

}  // namespace ptxcts
