// The wmma kind's GPU in software (support/device_emulator): loads, stores and products through the
// model's matrices (kinds/wmma/wmma_semantics), with a register layout of its own, which the manual
// leaves open; shuffled, each lane's registers go to the lane before it after a load or a product,
// and come from the lane after it before a store.
#include <stdexcept>

#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_kind.hpp"
#include "kinds/wmma/wmma_semantics.hpp"
#include "support/device_emulator.hpp"

namespace ptxcts::test {
namespace {

// The emulator's own wmma register layout: lane l's e-th element slot holds element
// (l * slots_per_lane + e) mod (rows * cols) of the matrix, row-major.
struct FragmentSlots {
  int first_word = 0, words = 0;
  const ElementFormat* format = nullptr;
  int per_lane() const { return format->bits == 64 ? words / 2 : words * 32 / format->bits; }
};

std::uint64_t get_slot(const LaunchState& s, const LaunchShape& shape, const FragmentSlots& f, int thread, int e) {
  const std::size_t at = static_cast<std::size_t>(thread * shape.regs + f.first_word);
  if (f.format->bits == 64)
    return s.regs[at + static_cast<std::size_t>(2 * e)] |
           (std::uint64_t{s.regs[at + static_cast<std::size_t>(2 * e + 1)]} << 32);
  const int per_word = 32 / f.format->bits;
  const std::uint64_t mask = (std::uint64_t{1} << f.format->bits) - 1;
  return (s.regs[at + static_cast<std::size_t>(e / per_word)] >> ((e % per_word) * f.format->bits)) & mask;
}

void set_slot(LaunchState& s, const LaunchShape& shape, const FragmentSlots& f, int thread, int e, std::uint64_t v) {
  const std::size_t at = static_cast<std::size_t>(thread * shape.regs + f.first_word);
  if (f.format->bits == 64) {
    s.regs[at + static_cast<std::size_t>(2 * e)] = static_cast<std::uint32_t>(v);
    s.regs[at + static_cast<std::size_t>(2 * e + 1)] = static_cast<std::uint32_t>(v >> 32);
    return;
  }
  const int per_word = 32 / f.format->bits, shift = (e % per_word) * f.format->bits;
  const std::uint32_t mask = static_cast<std::uint32_t>(((std::uint64_t{1} << f.format->bits) - 1) << shift);
  std::uint32_t& word = s.regs[at + static_cast<std::size_t>(e / per_word)];
  word = (word & ~mask) | (static_cast<std::uint32_t>(v << shift) & mask);
}

void encode(LaunchState& s, const LaunchShape& shape, int warp, const FragmentSlots& f, const WmmaValues& x) {
  const std::size_t n = x.bits.size();
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < f.per_lane(); ++e)
      set_slot(s, shape, f, warp * kWarpLanes + lane, e, x.bits[static_cast<std::size_t>(lane * f.per_lane() + e) % n]);
}

WmmaValues decode(const LaunchState& s, const LaunchShape& shape, int warp, const FragmentSlots& f, int rows,
                  int cols) {
  WmmaValues x{rows, cols, f.format, std::vector<std::uint64_t>(static_cast<std::size_t>(rows * cols))};
  if (kWarpLanes * f.per_lane() < rows * cols)
    throw std::runtime_error("emulator: a fragment too small for its matrix");
  for (int g = 0; g < rows * cols; ++g)
    x.bits[static_cast<std::size_t>(g)] = get_slot(s, shape, f, warp * kWarpLanes + g / f.per_lane(), g % f.per_lane());
  return x;
}

LaunchState run_wmma_kernel(const KernelPlan& k, const LaunchInput& in, bool shuffle, Mutant) {
  const std::vector<int> first = wmma_fragment_words(k);
  auto slots = [&](int f, const ElementFormat* format) {
    const WmmaFragment& fr = wmma_kernel(k).fragments[static_cast<std::size_t>(f)];
    return FragmentSlots{first[static_cast<std::size_t>(f)], fr.registers * (fr.wide ? 2 : 1), format};
  };
  const std::size_t steps = k.steps.size(), threads = static_cast<std::size_t>(in.shape.threads());
  LaunchState s = in.state;
  for (std::size_t i = 0; i < steps; ++i) {
    const Instance& inst = *k.steps[i];
    const WmmaBinding& b = wmma_kernel(k).bindings[i];
    const bool store = inst.variant().operation == kWmmaStore;
    if (shuffle && store) rotate_lanes(s, in.shape, false);
    for (int w = 0; w < in.shape.warps; ++w) {
      const std::size_t lane0 = static_cast<std::size_t>(w * kWarpLanes);
      const std::size_t tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(in.shape.tile_bytes);
      const std::uint32_t off = in.offsets[i * threads + lane0], stride = in.offsets[(steps + i) * threads + lane0];
      if (inst.variant().semantics_as<WmmaMma>()) {
        const WmmaMmaInfo x = wmma_mma_info(inst);
        const WmmaValues a = decode(s, in.shape, w, slots(b.fragments[1], x.a.format), x.m, x.k);
        const WmmaValues bm = decode(s, in.shape, w, slots(b.fragments[2], x.b.format), x.k, x.n);
        const WmmaValues c = decode(s, in.shape, w, slots(b.fragments[3], x.c.format), x.m, x.n);
        encode(s, in.shape, w, slots(b.fragments[0], x.d.format), wmma_multiply(x, a, bm, c));
        continue;
      }
      const WmmaMatrixInfo m = wmma_matrix_info(inst);
      const FragmentSlots f = slots(b.fragments[0], m.format);
      if (store) wmma_store_matrix(m, decode(s, in.shape, w, f, m.rows, m.cols), s.smem, tile + off, stride);
      else encode(s, in.shape, w, f, wmma_load_matrix(m, s.smem, tile + off, stride));
    }
    if (shuffle) rotate_lanes(s, in.shape, store);
  }
  return s;
}

[[maybe_unused]] const bool wmma_emulated =
    add_kind_emulator({.kind = &wmma_kind(), .run = run_wmma_kernel, .mutants = {}});

}  // namespace
}  // namespace ptxcts::test
