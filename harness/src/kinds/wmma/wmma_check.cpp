#include "kinds/wmma/wmma_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_kernel.hpp"
#include "kinds/wmma/wmma_registers.hpp"
#include "kinds/wmma/wmma_semantics.hpp"
#include "spec/layout.hpp"

namespace ptxcts {
namespace {

using Matrix = WmmaValues;

struct StoredMatrix {
  int step, warp;
  WmmaMatrixInfo info;
  std::size_t base;
  std::uint32_t stride;
  bool known;  // the model knows its values (else: any of the fragment's values)
  Matrix values;
};

struct ModelRun {
  std::vector<std::uint8_t> memory;
  std::vector<StoredMatrix> stored;
};

ModelRun run_model(const KernelPlan& k, const LaunchInput& in) {
  const std::size_t steps = k.steps.size();
  const int threads = in.shape.threads();
  ModelRun out{.memory = in.state.smem};
  for (int w = 0; w < in.shape.warps; ++w) {
    const std::size_t tile = static_cast<std::size_t>(w) * static_cast<std::size_t>(in.shape.tile_bytes);
    std::vector<Matrix> frag(wmma_kernel(k).fragments.size());
    std::vector<bool> known(wmma_kernel(k).fragments.size(), false);
    for (std::size_t s = 0; s < steps; ++s) {
      const Instance& inst = *k.steps[s];
      const WmmaBinding& bind = wmma_kernel(k).bindings[s];
      const std::size_t lane0 = static_cast<std::size_t>(w * kWarpLanes);
      const std::uint32_t off = in.offsets[s * static_cast<std::size_t>(threads) + lane0];
      const std::uint32_t stride = in.offsets[(steps + s) * static_cast<std::size_t>(threads) + lane0];
      if (inst.variant().semantics_as<WmmaMma>()) {
        const std::size_t d = static_cast<std::size_t>(bind.fragments[0]);
        frag[d] = wmma_multiply(wmma_mma_info(inst), frag[static_cast<std::size_t>(bind.fragments[1])],
                                frag[static_cast<std::size_t>(bind.fragments[2])],
                                frag[static_cast<std::size_t>(bind.fragments[3])]);
        known[d] = true;
        continue;
      }
      WmmaMatrixInfo m = wmma_matrix_info(inst);
      const std::size_t f = static_cast<std::size_t>(bind.fragments[0]);
      if (inst.variant().operation == kWmmaLoad) {
        frag[f] = wmma_load_matrix(m, out.memory, tile + off, stride);
        known[f] = true;
      } else {
        out.stored.push_back({.step = static_cast<int>(s),
                              .warp = w,
                              .info = m,
                              .base = tile + off,
                              .stride = stride,
                              .known = known[f],
                              .values = frag[f]});
        if (known[f]) wmma_store_matrix(m, frag[f], out.memory, tile + off, stride);
      }
    }
  }
  return out;
}

std::string hex(std::uint64_t v, int bits) { return fmt::format("0x{:0{}x}", v, std::max(1, (bits + 3) / 4)); }

std::string values(const std::vector<std::uint64_t>& sig, int bits) {
  std::string out;
  for (auto v : sig) out += (out.empty() ? "" : ", ") + hex(v, bits);
  return out;
}

// Every mismatch is counted; only the lines kept (the first max_lines) are written out.
struct WmmaNotes {
  Comparison& cmp;
  std::size_t max_lines;
  template <typename Line>
  void note(Line&& line) {
    ++cmp.mismatches;
    if (cmp.diff.size() < max_lines) cmp.diff.push_back(line());
  }
};

// One stored matrix against the model: each element as the model says, or, where the model
// cannot say (the registers' layout is unspecified), one of the fragment's values, each as often as
// the registers hold it. Marks the bytes it covers.
void check_stored(const KernelPlan& k, const LaunchInput& in, const LaunchState& actual, const StoredMatrix& st,
                  std::vector<bool>& covered, WmmaNotes& notes) {
  const WmmaMatrixInfo& m = st.info;
  std::multiset<std::uint64_t> allowed;
  if (!st.known) {
    const std::vector<int> first = wmma_fragment_words(k);
    const std::size_t f =
        static_cast<std::size_t>(wmma_kernel(k).bindings[static_cast<std::size_t>(st.step)].fragments[0]);
    const int words = wmma_kernel(k).fragments[f].registers * (wmma_kernel(k).fragments[f].wide ? 2 : 1);
    for (auto v : register_elements(in.state, in.shape, st.warp, first[f], words, *m.format)) allowed.insert(v);
  }
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const long long bit = m.bit_offset(r, c, st.stride);
      for (int b = 0; b < m.format->bits / 8; ++b) covered[st.base + static_cast<std::size_t>(bit / 8 + b)] = true;
      const std::uint64_t got = read_bits(actual.smem, st.base, bit, m.format->bits);
      if (st.known) {
        const std::uint64_t want = st.values.at(r, c);
        if (got != want)
          notes.note([&] {
            return fmt::format("warp {}: step {} ({}) D[{}][{}]: expected {} ({}), got {} ({})", st.warp, st.step,
                               k.steps[static_cast<std::size_t>(st.step)]->mnemonic(), r, c, hex(want, m.format->bits),
                               element_value(*m.format, want), hex(got, m.format->bits), element_value(*m.format, got));
          });
      } else if (auto it = allowed.find(got); it != allowed.end()) {
        allowed.erase(it);
      } else {
        notes.note([&] {
          return fmt::format(
              "warp {}: step {} ({}) D[{}][{}]: got {}, which is not one of the fragment's values (or is "
              "written twice)",
              st.warp, st.step, k.steps[static_cast<std::size_t>(st.step)]->mnemonic(), r, c, hex(got, m.format->bits));
        });
      }
    }
}

// A single load: across the warps, each register slot must hold one element of the matrix (the
// same one in every warp), and every element must be in some slot.
void check_single_load(const KernelPlan& k, const LaunchInput& in, const LaunchState& actual, WmmaNotes& notes) {
  const ElementFormat& f = *wmma_matrix_info(*k.steps[0]).format;
  const Signatures sig = signatures(k, in, actual, in.state);
  std::set<std::vector<std::uint64_t>> held;
  for (std::size_t p = 0; p < sig.slot.size(); ++p) {
    held.insert(sig.slot[p]);
    if (!sig.element.count(sig.slot[p]))
      notes.note([&] {
        return fmt::format("lane {} {} holds {} in warps 0..{}, which is no element of the matrix", p / sig.per_lane,
                           slot_name(f, p % sig.per_lane), values(sig.slot[p], f.bits), in.shape.warps - 1);
      });
  }
  for (auto const& [s, at] : sig.element)
    if (!held.count(s))
      for (auto const& [r, c] : at)
        notes.note([&] {
          return fmt::format("element [{}][{}] ({} in warps 0..{}) is in no fragment register", r, c, values(s, f.bits),
                             in.shape.warps - 1);
        });
}

}  // namespace

Comparison check_wmma(const KernelPlan& k, const LaunchInput& in, const LaunchState& actual, std::size_t max_lines) {
  ModelRun model = run_model(k, in);
  Comparison cmp;
  WmmaNotes notes{cmp, max_lines};
  std::vector<bool> covered(in.state.smem.size(), false);
  for (auto const& st : model.stored) check_stored(k, in, actual, st, covered, notes);
  // The bytes no store covers must be as they were: compared a block at a time, the bytes of a block
  // that differs one by one (48 KiB a case, most of them equal).
  constexpr std::size_t kBlock = 64;
  for (std::size_t at = 0; at < in.state.smem.size(); at += kBlock) {
    const std::size_t end = std::min(in.state.smem.size(), at + kBlock);
    if (std::equal(actual.smem.begin() + static_cast<std::ptrdiff_t>(at),
                   actual.smem.begin() + static_cast<std::ptrdiff_t>(end),
                   model.memory.begin() + static_cast<std::ptrdiff_t>(at)))
      continue;
    for (std::size_t b = at; b < end; ++b)
      if (actual.smem[b] != model.memory[b] && !covered[b])
        notes.note([&] {
          return fmt::format("warp {} byte +{} of its tile: expected 0x{:02x} (untouched), got 0x{:02x}",
                             b / static_cast<std::size_t>(in.shape.tile_bytes),
                             b % static_cast<std::size_t>(in.shape.tile_bytes), model.memory[b], actual.smem[b]);
        });
  }
  if (k.steps.size() == 1 && k.steps[0]->variant().operation == kWmmaLoad) check_single_load(k, in, actual, notes);
  return cmp;
}

}  // namespace ptxcts
