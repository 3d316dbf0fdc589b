#include "support/device_emulator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "kinds/matrix_move/matrix_move_planner.hpp"
#include "kinds/matrix_move/reference_model.hpp"
#include "kinds/mma/mma_compose.hpp"
#include "kinds/mma/mma_info.hpp"
#include "kinds/mma/mma_kind.hpp"
#include "kinds/mma/mma_semantics.hpp"
#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_kind.hpp"
#include "kinds/wmma/wmma_semantics.hpp"

namespace ptxcts::test {
namespace {

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

bool is_store(const Instance& i) {
  return i.variant().operation == Operation::Store || i.variant().operation == Operation::WmmaStore;
}

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

LaunchState run_fragment_kernel(const KernelPlan& k, const LaunchInput& in, bool shuffle) {
  const std::vector<ModelStep> steps = matrix_move_model_steps(k);
  const std::size_t threads = static_cast<std::size_t>(in.shape.threads());
  LaunchState s = in.state;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const bool store = is_store(*steps[i].instance);
    if (shuffle && store) rotate_lanes(s, in.shape, false);
    LaunchInput one{in.shape, {}, s};
    one.offsets.assign(in.offsets.begin() + static_cast<std::ptrdiff_t>(i * threads),
                       in.offsets.begin() + static_cast<std::ptrdiff_t>((i + 1) * threads));
    s = expected_state({steps[i]}, one);
    if (shuffle) rotate_lanes(s, in.shape, store);
  }
  return s;
}

LaunchState run_wmma_kernel(const KernelPlan& k, const LaunchInput& in, bool shuffle) {
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
    const bool store = is_store(inst);
    if (shuffle && store) rotate_lanes(s, in.shape, false);
    for (int w = 0; w < in.shape.warps; ++w) {
      const std::size_t lane0 = static_cast<std::size_t>(w * kWarpLanes);
      const std::size_t tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(in.shape.tile_bytes);
      const std::uint32_t off = in.offsets[i * threads + lane0], stride = in.offsets[(steps + i) * threads + lane0];
      if (inst.variant().wmma_mma) {
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

// A composition's ldmatrix, stmatrix or movmatrix step, through its spec layout (spec/layout), on
// the 16-bit registers of an mma operand (`first` its first word) of one warp.
void run_fragment_step(const Instance& inst, std::uint32_t* warp, int words, int first, std::vector<std::uint8_t>& smem,
                       std::size_t tile, const std::uint32_t* offsets) {
  const Layout L = compute_layout(inst);
  const Operation op = inst.variant().operation;
  if (op == Operation::Move) {  // d: the element the source holds at the destination's position
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
              w = (w & ~(0xFFFFu << (16 * e))) | (((src[static_cast<std::size_t>(l2)] >> (16 * e2)) & 0xFFFFu) << (16 * e));
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
        if (op == Operation::Load) {
          w = (w & ~(0xFFFFu << (16 * e))) | (static_cast<std::uint32_t>(smem.at(at) | (smem.at(at + 1) << 8)) << (16 * e));
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
    case Mutant::MmaPermuteM: return {.a_row = true, .c_row = true, .d_row = true};
    case Mutant::MmaPermuteN: return {.b_col = true, .c_col = true, .d_col = true};
    case Mutant::MmaPermuteK: return {.a_col = true, .b_row = true};
    case Mutant::MmaPermuteAM: return {.a_row = true};
    case Mutant::MmaPermuteDM: return {.d_row = true};
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
  const auto a = mma_matrices(x, x.a, warp, stride), b = mma_matrices(x, x.b, warp, stride),
             c = mma_matrices(x, x.c, warp, stride);
  std::vector<MatrixValues> d;
  for (std::size_t g = 0; g < a.size(); ++g)
    d.push_back(relabelled(multiply_accumulate(x.rule, relabelled(a[g], L.a_row, L.a_col, true),
                                               relabelled(b[g], L.b_row, L.b_col, true),
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
      if (inst.variant().operation == Operation::Mma) {
        if (relabel == Mutant::None) mma_execute(x, warp, words);
        else mma_execute_relabelled(x, warp, words, relabelling_of(relabel));
        continue;
      }
      const int first = inst.variant().operation == Operation::Load ? (i == 0 ? x.a.first_word : x.b.first_word)
                                                                   : x.d.first_word;
      run_fragment_step(inst, warp, words, first, s.smem, static_cast<std::size_t>(w * in.shape.tile_bytes),
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

Mutant mutant_from_string(const std::string& s) {
  if (s == "model") return Mutant::None;
  if (s == "echo") return Mutant::Echo;
  if (s == "zero") return Mutant::Zero;
  if (s == "shuffled") return Mutant::Shuffled;
  if (s == "off-by-one") return Mutant::OffByOne;
  if (s == "stale") return Mutant::Stale;
  if (s == "mma-permute-m") return Mutant::MmaPermuteM;
  if (s == "mma-permute-n") return Mutant::MmaPermuteN;
  if (s == "mma-permute-k") return Mutant::MmaPermuteK;
  if (s == "mma-permute-a-m") return Mutant::MmaPermuteAM;
  if (s == "mma-permute-d-m") return Mutant::MmaPermuteDM;
  throw std::invalid_argument("unknown device mode '" + s +
                              "'; expected model, echo, zero, shuffled, off-by-one, stale, mma-permute-m, "
                              "mma-permute-n, mma-permute-k, mma-permute-a-m or mma-permute-d-m");
}

LaunchState DeviceEmulator::correct(const KernelPlan& k, const LaunchInput& in, bool shuffle, Mutant relabel) {
  if (k.kind == &mma_kind()) return run_mma_kernel(k, in, shuffle, relabel);
  return k.kind == &wmma_kind() ? run_wmma_kernel(k, in, shuffle) : run_fragment_kernel(k, in, shuffle);
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
    case Mutant::MmaPermuteM:
    case Mutant::MmaPermuteN:
    case Mutant::MmaPermuteK:
    case Mutant::MmaPermuteAM:
    case Mutant::MmaPermuteDM: return correct(k, in, false, mutant);
    case Mutant::None: break;
  }
  return correct(k, in, false);
}

}  // namespace ptxcts::test
