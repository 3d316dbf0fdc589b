// The mma kind's GPU in software (support/device_emulator): mma through the specs' layouts, a
// composition's other steps through theirs; and its own devices that are not the manual's, which
// read the layouts with an axis relabelled (Mutant::PermuteM ... PermuteDM; issue 38).
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "spec/layout.hpp"
#include "support/device_emulator.hpp"

namespace ptxcts::test {
namespace {

// A composition's ldmatrix, stmatrix or movmatrix step, through its spec layout (spec/layout), on
// the 16-bit registers of an mma operand (`first` its first word) of one warp.
void run_operand_step(const Instance& inst, std::uint32_t* warp, int words, int first, std::vector<std::uint8_t>& smem,
                      std::size_t tile, const std::uint32_t* offsets) {
  const Layout L = compute_layout(inst);
  const std::string& op = inst.variant().operation;
  if (op == "move") {  // d: the element the source holds at the destination's position
    std::vector<std::uint32_t> src(static_cast<std::size_t>(kWarpLanes));
    for (int lane = 0; lane < kWarpLanes; ++lane) src[static_cast<std::size_t>(lane)] = warp[lane * words + first];
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int e = 0; e < 2; ++e) {
        const ElementPos& want = L.at(lane, 0, e);
        for (int l2 = 0; l2 < kWarpLanes; ++l2)
          for (int e2 = 0; e2 < 2; ++e2) {
            const ElementPos& p = L.source[static_cast<std::size_t>(l2 * 2 + e2)];
            if (p.matrix == want.matrix && p.row == want.row && p.col == want.col) {
              std::uint32_t& w = warp[lane * words + words - 1];
              w = (w & ~(0xFFFFu << (16 * e))) |
                  (((src[static_cast<std::size_t>(l2)] >> (16 * e2)) & 0xFFFFu) << (16 * e));
            }
          }
      }
    return;
  }
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int r = 0; r < L.registers; ++r)
      for (int e = 0; e < L.elements_per_register; ++e) {
        const ElementPos& p = L.at(lane, r, e);
        const int supplier = L.row_lane[static_cast<std::size_t>(p.matrix * L.rows + p.row)];
        const std::size_t at = tile + offsets[supplier] + static_cast<std::size_t>(p.col * 2);
        std::uint32_t& w = warp[lane * words + first + r];
        if (op == "load") {
          w = (w & ~(0xFFFFu << (16 * e))) |
              (static_cast<std::uint32_t>(smem.at(at) | (smem.at(at + 1) << 8)) << (16 * e));
        } else {
          smem.at(at) = static_cast<std::uint8_t>(w >> (16 * e));
          smem.at(at + 1) = static_cast<std::uint8_t>(w >> (16 * e + 8));
        }
      }
}

// Which axes of which operand an mma mutant reads relabelled: what the manual puts at (row, col) is,
// to that device, at (row + 1 mod rows, col) (rows), or (row, col + 1 mod cols) (cols).
struct Relabelling {
  bool a_row = false, a_col = false, b_row = false, b_col = false, c_row = false, c_col = false, d_row = false,
       d_col = false;
};

Relabelling relabelling_of(Mutant m) {
  switch (m) {
    case Mutant::PermuteM: return {.a_row = true, .c_row = true, .d_row = true};
    case Mutant::PermuteN: return {.b_col = true, .c_col = true, .d_col = true};
    case Mutant::PermuteK: return {.a_col = true, .b_row = true};
    case Mutant::PermuteAM: return {.a_row = true};
    case Mutant::PermuteDM: return {.d_row = true};
    default: return {};
  }
}

// The matrix as the relabelling device sees it (`to`), or back from its (`!to`).
MatrixValues relabelled(const MatrixValues& x, bool rows, bool cols, bool to) {
  MatrixValues y = x;
  for (int r = 0; r < x.rows; ++r)
    for (int c = 0; c < x.cols; ++c) {
      const int r2 = rows ? (r + 1) % x.rows : r, c2 = cols ? (c + 1) % x.cols : c;
      if (to) y.at(r2, c2) = x.at(r, c);
      else y.at(r, c) = x.at(r2, c2);
    }
  return y;
}

// mma_execute (kinds/mma/mma_semantics) on a device that reads the layouts relabelled.
void mma_execute_relabelled(const MmaInfo& x, std::uint32_t* warp, int stride, const Relabelling& L) {
  const auto a = mma_a_matrices(x, warp, stride), b = mma_matrices(x, x.b, warp, stride),
             c = mma_matrices(x, x.c, warp, stride);
  std::vector<MatrixValues> d;
  for (std::size_t g = 0; g < a.size(); ++g)
    d.push_back(relabelled(
        multiply_accumulate(x.rule, relabelled(a[g], L.a_row, L.a_col, true), relabelled(b[g], L.b_row, L.b_col, true),
                            relabelled(c[g], L.c_row, L.c_col, true)),
        L.d_row, L.d_col, false));
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int w = 0; w < x.d.words(); ++w) warp[lane * stride + x.d.first_word + w] = 0;
  mma_place(x.d, d, warp, stride);
}

// mma through the specs' layouts: the registers' matrices, multiplied; a composition's other steps
// through theirs. Shuffled: each lane's d goes to the lane before it. `relabel`: an mma mutant's.
LaunchState run_mma_kernel(const KernelPlan& k, const LaunchInput& in, bool shuffle, Mutant relabel) {
  const MmaInfo x = mma_info(mma_step(k));
  const int words = in.shape.regs, threads = in.shape.threads();
  LaunchState s = in.state;
  for (std::size_t i = 0; i < k.steps.size(); ++i)
    for (int w = 0; w < in.shape.warps; ++w) {
      std::uint32_t* warp = s.regs.data() + static_cast<std::size_t>(w * kWarpLanes * words);
      const Instance& inst = *k.steps[i];
      if (inst.variant().operation == kMmaOperation) {
        if (relabel == Mutant::None) mma_execute(x, warp, words);
        else mma_execute_relabelled(x, warp, words, relabelling_of(relabel));
        continue;
      }
      const int first =
          inst.variant().operation == "load" ? (i == 0 ? x.a.first_word : x.b.first_word) : x.d.first_word;
      run_operand_step(
          inst, warp, words, first, s.smem, static_cast<std::size_t>(w * in.shape.tile_bytes),
          in.offsets.data() + i * static_cast<std::size_t>(threads) + static_cast<std::size_t>(w * kWarpLanes));
    }
  if (!shuffle) return s;
  const LaunchState before = s;
  for (int t = 0; t < threads; ++t) {
    const int from = (t / kWarpLanes) * kWarpLanes + (t % kWarpLanes + 1) % kWarpLanes;
    for (int w = 0; w < x.d.words(); ++w)
      s.regs[static_cast<std::size_t>(t * words + x.d.first_word + w)] =
          before.regs[static_cast<std::size_t>(from * words + x.d.first_word + w)];
  }
  return s;
}

[[maybe_unused]] const bool mma_emulated = add_kind_emulator({.kind = &mma_kind(),
                                                              .run = run_mma_kernel,
                                                              .mutants = {{"mma-permute-m", Mutant::PermuteM},
                                                                          {"mma-permute-n", Mutant::PermuteN},
                                                                          {"mma-permute-k", Mutant::PermuteK},
                                                                          {"mma-permute-a-m", Mutant::PermuteAM},
                                                                          {"mma-permute-d-m", Mutant::PermuteDM}}});

}  // namespace
}  // namespace ptxcts::test
