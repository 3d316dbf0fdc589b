#include "kinds/matrix_move/case_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace ptxcts {
namespace {

int round_up(int v, int to) { return (v + to - 1) / to * to; }

// Byte offset (within a region) of every row k = matrix * rows + row, for one warp.
std::vector<std::uint32_t> place_rows(const CaseSpec& c, const Layout& L, const Variant& v, int region_bytes,
                                      int warp) {
  const int count = L.matrices * L.rows;
  const int stride = round_up(v.row_bytes(), v.row_alignment);
  std::vector<std::uint32_t> at(static_cast<std::size_t>(count));
  switch (c.rows) {
    case RowPlacement::Contiguous:
    case RowPlacement::Pitch: {
      const int pitch = c.rows == RowPlacement::Pitch ? c.pitch : stride;
      if (pitch < v.row_bytes() || pitch % v.row_alignment != 0)
        throw std::runtime_error(fmt::format("case '{}': pitch {} cannot hold {}-byte rows aligned to {}", c.name,
                                             pitch, v.row_bytes(), v.row_alignment));
      for (int k = 0; k < count; ++k) at[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(k * pitch);
      break;
    }
    case RowPlacement::Scattered: {
      std::vector<int> slots(static_cast<std::size_t>(region_bytes / stride));
      std::iota(slots.begin(), slots.end(), 0);
      std::mt19937_64 rng(c.seed * 1000003u + static_cast<std::uint64_t>(warp));
      std::shuffle(slots.begin(), slots.end(), rng);
      for (int k = 0; k < count; ++k)
        at[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(slots[static_cast<std::size_t>(k)] * stride);
      break;
    }
  }
  for (auto off : at)
    if (off + static_cast<std::uint32_t>(v.row_bytes()) > static_cast<std::uint32_t>(region_bytes))
      throw std::runtime_error(
          fmt::format("case '{}': {} rows do not fit a {}-byte region", c.name, count, region_bytes));
  return at;
}

// Where each case starts its values, so that no two cases give the same outputs (a device that
// returns the previous launch's outputs is caught).
std::uint64_t case_salt(const CaseSet& set, const CaseSpec& c) {
  std::uint64_t salt = 0;
  while (salt < set.cases.size() && set.cases[salt].name != c.name) ++salt;
  return salt * 977;
}

// Unique memory values below the top bit; never 0, which zeroed memory holds. Packed sub-byte
// elements (a widening load) take every value of their width in turn, negative ones included, so
// that 16 consecutive 4-bit elements of a row are all distinct; each 16-byte block starts its run 7
// further on, so that rows in different blocks differ too. A block holds whole elements from its
// first bit (rows start at blocks), 6-bit ones straddling bytes.
void fill_unique_memory(std::vector<std::uint8_t>& smem, int mbits, std::uint64_t salt) {
  const std::uint64_t half = std::uint64_t{1} << (mbits - 1);
  const std::uint64_t elems = smem.size() * 8 / static_cast<std::size_t>(mbits);
  const std::uint64_t per_block = 128 / static_cast<std::uint64_t>(mbits);
  for (std::uint64_t e = 0; e < elems; ++e) {
    std::uint64_t bit = e * static_cast<std::uint64_t>(mbits);
    if (mbits < 8) {
      bit = e / per_block * 128 + e % per_block * static_cast<std::uint64_t>(mbits);
      if (bit / 8 >= smem.size()) break;
      const std::uint64_t v = ((e + salt + bit / 128 * 7) % (half * 2)) << (bit % 8);
      smem[bit / 8] = static_cast<std::uint8_t>(smem[bit / 8] | v);
      if (bit % 8 + static_cast<std::uint64_t>(mbits) > 8)
        smem[bit / 8 + 1] = static_cast<std::uint8_t>(smem[bit / 8 + 1] | (v >> 8));
      continue;
    }
    std::uint64_t v = 1 + (e + salt) % (half - 1);
    for (int b = 0; b < mbits / 8; ++b)
      smem[bit / 8 + static_cast<std::uint64_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
  }
}

// Data: unique values (memory below the top bit, registers with it set) or seeded random bits.
void fill_data(LaunchInput& in, const CaseSet& set, const CaseSpec& c, const Layout& first) {
  in.state.smem.assign(static_cast<std::size_t>(set.warps * set.tile_bytes), 0);
  in.state.regs.assign(static_cast<std::size_t>(in.shape.threads() * in.shape.regs), 0);
  if (c.data == DataKind::Random) {
    std::mt19937_64 rng(c.seed);
    for (auto& b : in.state.smem) b = static_cast<std::uint8_t>(rng());
    for (auto& r : in.state.regs) r = static_cast<std::uint32_t>(rng());
    return;
  }
  fill_unique_memory(in.state.smem, first.memory_bits, case_salt(set, c));
  const int ebits = first.element_bits;
  const std::uint64_t rhalf = std::uint64_t{1} << (ebits - 1);
  const int per_reg = 32 / ebits;
  std::uint64_t n = 0;
  for (auto& r : in.state.regs) {
    std::uint32_t word = 0;
    for (int i = 0; i < per_reg; ++i, ++n) word |= static_cast<std::uint32_t>((rhalf | (n % rhalf)) << (i * ebits));
    r = word;
  }
}

// The row address lane `lane` gives in a step whose rows start at `base`: its own row's; where it
// supplies none, poison or (as the manual advises for sm_75) a lane's that does; fault cases' 8
// bytes off their 16-byte alignment, or far outside shared memory.
std::uint32_t lane_offset(const CaseSpec& c, const Layout& L, const std::vector<std::uint32_t>& rows,
                          const std::vector<int>& active_lanes, std::uint32_t base, int lane) {
  std::uint32_t off;
  if (L.active[static_cast<std::size_t>(lane)]) {
    const ElementPos& p = L.lane_row[static_cast<std::size_t>(lane)];
    off = base + rows[static_cast<std::size_t>(p.matrix * L.rows + p.row)];
  } else if (c.poison_unused) {
    off = kPoisonOffset;
  } else {
    const ElementPos& p =
        L.lane_row[static_cast<std::size_t>(active_lanes[static_cast<std::size_t>(lane) % active_lanes.size()])];
    off = base + rows[static_cast<std::size_t>(p.matrix * L.rows + p.row)];
  }
  if (c.fault == Fault::Misaligned && L.active[static_cast<std::size_t>(lane)]) off += 8;
  if (c.fault == Fault::OutsideShared) off = kPoisonOffset;
  return off;
}

// Step k's addresses for warp w, its rows (`rows`, placed by the first step) in region k; a row's
// padding (ldmatrix .b8x16.b6x16_p32) poisoned in every case: reading it shows.
void address_step(LaunchInput& in, const CaseSet& set, const CaseSpec& c, const ModelStep& step, std::size_t k, int w,
                  const std::vector<std::uint32_t>& rows, int region_bytes) {
  const Layout& L = step.layout;
  const std::uint32_t base = static_cast<std::uint32_t>(static_cast<int>(k) * region_bytes);
  const Variant& v = step.instance->variant();
  for (std::uint32_t row : rows)
    for (int b = v.element_row_bytes(); b < v.row_bytes(); ++b)
      in.state.smem[static_cast<std::size_t>(w) * static_cast<std::size_t>(set.tile_bytes) + base + row +
                    static_cast<std::size_t>(b)] = kPaddingPoison;
  std::vector<int> active_lanes;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    if (L.active[static_cast<std::size_t>(lane)]) active_lanes.push_back(lane);
  const std::size_t threads = static_cast<std::size_t>(in.shape.threads());
  for (int lane = 0; lane < kWarpLanes; ++lane)
    in.offsets[k * threads + static_cast<std::size_t>(w * kWarpLanes + lane)] =
        lane_offset(c, L, rows, active_lanes, base, lane);
}

}  // namespace

LaunchInput make_case_input(const CaseSet& set, const CaseSpec& c, const std::vector<ModelStep>& steps) {
  if (steps.empty() || static_cast<int>(steps.size()) > set.regions)
    throw std::runtime_error(fmt::format("a kernel needs 1 to {} steps (one region each)", set.regions));
  LaunchInput in;
  in.shape.warps = set.warps;
  in.shape.tile_bytes = set.tile_bytes;
  in.shape.steps = static_cast<int>(steps.size());
  for (auto const& s : steps) in.shape.regs = std::max(in.shape.regs, s.layout.registers);
  const int region_bytes = set.tile_bytes / set.regions;
  const Layout& first = steps[0].layout;
  const Variant& first_variant = steps[0].instance->variant();
  fill_data(in, set, c, first);

  // Addresses: every step uses the first step's row placement, in its own region. (A move has none.)
  in.offsets.assign(static_cast<std::size_t>(in.shape.steps * in.shape.threads()), 0);
  if (first_variant.operation == "move") return in;
  for (int w = 0; w < set.warps; ++w) {
    std::vector<std::uint32_t> rows = place_rows(c, first, first_variant, region_bytes, w);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const Layout& L = steps[k].layout;
      if (L.matrices * L.rows != first.matrices * first.rows)
        throw std::runtime_error("the steps of one kernel must address the same number of rows");
      address_step(in, set, c, steps[k], k, w, rows, region_bytes);
    }
  }
  return in;
}

}  // namespace ptxcts
