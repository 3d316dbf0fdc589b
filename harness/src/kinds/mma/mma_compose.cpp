#include "kinds/mma/mma_compose.hpp"

#include <fmt/format.h>

#include <random>
#include <stdexcept>

#include "emit/skeleton.hpp"
#include "kinds/instruction_kind.hpp"
#include "kinds/mma/mma_case_data.hpp"
#include "kinds/mma/mma_semantics.hpp"

namespace ptxcts {
namespace {

// What the composition does, told by its steps' operations.
enum class Composition { FeedAB, StoreD, TransposeD };

struct ComposeKernel {
  Composition what = Composition::FeedAB;
  std::size_t mma = 0;  // the mma's step
};

// A warp's tile: A (16 rows of 32 bytes) at 0 and B (16 rows of 16 bytes) at 512, or D stored at 0.
constexpr int kTileBytes = 1024, kBAt = 512;

const ComposeKernel& compose_of(const KernelPlan& k) { return std::any_cast<const ComposeKernel&>(k.kind_data); }

ComposeKernel classify(const std::vector<const Instance*>& steps, const std::string& claim) {
  std::vector<std::string> ops;
  for (auto const* s : steps) ops.push_back(s->variant().operation);
  using Ops = std::vector<std::string>;
  if (ops == Ops{"load", "load", kMmaOperation}) return {.what = Composition::FeedAB, .mma = 2};
  if (ops == Ops{kMmaOperation, "store"}) return {.what = Composition::StoreD, .mma = 0};
  if (ops == Ops{kMmaOperation, "move"}) return {.what = Composition::TransposeD, .mma = 0};
  throw std::runtime_error(
      fmt::format("claim {}: the mma kind composes a load, a load and mma (A and B fed); mma "
                  "and a store (D stored); or mma and a move (D transposed)",
                  claim));
}

const Instance& by_mnemonic(const std::deque<Instance>& instances, const std::string& mnemonic, const std::string& claim) {
  const Instance* found = nullptr;
  for (auto const& inst : instances)
    if (inst.mnemonic() == mnemonic && (!found || inst.address_width() == 32)) found = &inst;
  if (!found) throw std::runtime_error(fmt::format("claim {} composes '{}', which is no form of any variant", claim, mnemonic));
  return *found;
}

// Lane l's byte offset in the tile for each step with an address (0 for those without).
std::uint32_t lane_offset(Composition what, std::size_t step, int lane) {
  const int matrix = (lane % 32) / 8, row = lane % 8;
  if (what == Composition::FeedAB && step == 0)  // .x4: A's quadrants, rows 0-7 then 8-15, cols 0-7 then 8-15
    return static_cast<std::uint32_t>((row + 8 * (matrix % 2)) * 32 + (matrix / 2) * 16);
  if (what == Composition::FeedAB && step == 1)  // .x2.trans: B's rows 0-7 then 8-15
    return static_cast<std::uint32_t>(kBAt + (row + 8 * (matrix % 2)) * 16);
  if (what == Composition::StoreD && step == 1)  // .x2: D's rows 0-7 then 8-15
    return static_cast<std::uint32_t>((row + 8 * (matrix % 2)) * 16);
  return 0;
}

// A row-major matrix of 16-bit elements in a warp's tile.
MatrixValues read_tile(const std::vector<std::uint8_t>& smem, std::size_t base, int rows, int cols,
                       const ElementFormat* f) {
  MatrixValues m{.rows = rows,
                 .cols = cols,
                 .format = f,
                 .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(rows * cols))};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::size_t at = base + static_cast<std::size_t>((r * cols + c) * 2);
      m.at(r, c) = smem[at] | (std::uint64_t{smem[at + 1]} << 8);
    }
  return m;
}

void write_tile(std::vector<std::uint8_t>& smem, std::size_t base, const MatrixValues& m) {
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const std::size_t at = base + static_cast<std::size_t>((r * m.cols + c) * 2);
      smem[at] = static_cast<std::uint8_t>(m.at(r, c));
      smem[at + 1] = static_cast<std::uint8_t>(m.at(r, c) >> 8);
    }
}

}  // namespace

std::vector<KernelPlan> plan_mma_compositions(const InstructionKind& kind, const std::deque<Instance>& instances,
                                              const SpecSet& specs) {
  std::vector<KernelPlan> out;
  for (auto const& c : specs.claims) {
    if (c.check.kind != ClaimCheckKind::Composition) continue;
    std::vector<const Instance*> steps;
    for (auto const& m : c.check.steps) steps.push_back(&by_mnemonic(instances, m, c.id));
    const ComposeKernel ck = classify(steps, c.id);
    KernelPlan k = KernelPlan::of(kind, file_safe("compose." + c.id), "mma", steps, c.id);
    k.audited = false;  // the instructions' own kernels judge their requirements
    k.kind_data = ck;
    out.push_back(std::move(k));
  }
  return out;
}

bool is_composition(const KernelPlan& k) { return std::any_cast<ComposeKernel>(&k.kind_data) != nullptr; }

const Instance& mma_step(const KernelPlan& k) {
  return is_composition(k) ? *k.steps[compose_of(k).mma] : k.subject_instance();
}

int compose_extra_words(const KernelPlan& k) {
  return is_composition(k) && compose_of(k).what == Composition::TransposeD ? 1 : 0;
}

void compose_instructions(const KernelPlan& k, const MmaInfo& x, MmaProgram& prog) {
  for (std::size_t s = 0; s < k.steps.size(); ++s) {
    const Instance& inst = *k.steps[s];
    std::string text = inst.text();
    const std::string& op = inst.variant().operation;
    if (op == kMmaOperation) text = mma_instruction(inst, x);
    if (op == "load") fill_placeholder(text, "{regs}", mma_operand_list(x, s == 0 ? x.a : x.b));
    if (op == "store") fill_placeholder(text, "{regs}", mma_operand_list(x, x.d));
    if (op == "move") {  // d's first register: rows 0-7 of D, the m8n8 fragment layout
      fill_placeholder(text, "{dst}", fmt::format("%w{}", prog.regs32 - 1));
      fill_placeholder(text, "{src}", mma_operand_list(x, x.d).substr(1, mma_operand_list(x, x.d).find_first_of(",}") - 1));
    }
    fill_placeholder(text, "{addr}", fmt::format("%addr{}", s));
    prog.instructions.push_back(text);
    prog.addressed.push_back(op == "load" || op == "store");
  }
}

LaunchInput make_compose_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& k, const MmaInfo& x) {
  const Composition what = compose_of(k).what;
  LaunchInput in = make_mma_input(set, c, x);  // a, b, c in registers as mma takes them; d poisoned
  const int words = x.words + compose_extra_words(k);
  const int threads = in.shape.threads();
  std::vector<std::uint32_t> regs(static_cast<std::size_t>(threads * words), kMmaPoison);
  for (int t = 0; t < threads; ++t)
    for (int w = 0; w < x.words; ++w)
      regs[static_cast<std::size_t>(t * words + w)] = in.state.regs[static_cast<std::size_t>(t * x.words + w)];
  in.shape.regs = words;
  in.shape.tile_bytes = kTileBytes;
  in.shape.steps = static_cast<int>(k.steps.size());
  in.state.smem.assign(static_cast<std::size_t>(in.shape.warps * kTileBytes), 0xA5);  // poison: what a store must cover
  if (what == Composition::FeedAB)
    for (int w = 0; w < in.shape.warps; ++w) {  // A and B from the registers' matrices into the tile; a, b poisoned
      std::uint32_t* warp = regs.data() + static_cast<std::size_t>(w * kWarpLanes * words);
      const std::size_t tile = static_cast<std::size_t>(w * kTileBytes);
      write_tile(in.state.smem, tile, mma_matrices(x, x.a, warp, words).front());
      write_tile(in.state.smem, tile + kBAt, mma_matrices(x, x.b, warp, words).front());
      for (int lane = 0; lane < kWarpLanes; ++lane)
        for (int i = 0; i < x.a.words() + x.b.words(); ++i) warp[lane * words + i] = kMmaPoison;
    }
  in.state.regs = std::move(regs);
  in.offsets.assign(static_cast<std::size_t>(in.shape.steps * threads), 0);
  for (std::size_t s = 0; s < k.steps.size(); ++s)
    for (int t = 0; t < threads; ++t) in.offsets[s * static_cast<std::size_t>(threads) + static_cast<std::size_t>(t)] = lane_offset(what, s, t % kWarpLanes);
  return in;
}

LaunchState compose_expected(const KernelPlan& k, const MmaInfo& x, const LaunchInput& in) {
  const Composition what = compose_of(k).what;
  LaunchState out = in.state;
  const int words = in.shape.regs;
  for (int w = 0; w < in.shape.warps; ++w) {
    std::uint32_t* warp = out.regs.data() + static_cast<std::size_t>(w * kWarpLanes * words);
    const std::size_t tile = static_cast<std::size_t>(w * kTileBytes);
    if (what == Composition::FeedAB) {  // the tile's rows are A's and B's: so must the fragments be
      mma_place(x.a, {read_tile(in.state.smem, tile, x.m, x.k, x.a.format)}, warp, words);
      mma_place(x.b, {read_tile(in.state.smem, tile + kBAt, x.k, x.n, x.b.format)}, warp, words);
    }
    mma_execute(x, warp, words);
    const MatrixValues d = mma_matrices(x, x.d, warp, words).front();
    if (what == Composition::StoreD) write_tile(out.smem, tile, d);  // D's rows, in row order
    if (what == Composition::TransposeD)  // rows 0-7 of D transposed, in the m8n8 fragment layout
      for (int lane = 0; lane < kWarpLanes; ++lane)
        warp[lane * words + x.words] = static_cast<std::uint32_t>(d.at((lane % 4) * 2, lane / 4) |
                                                                  (d.at((lane % 4) * 2 + 1, lane / 4) << 16));
  }
  return out;
}

Comparison check_compose(const KernelPlan& k, const MmaInfo& x, const LaunchInput& in, const LaunchState& actual,
                         std::size_t max_lines) {
  Comparison c;
  auto note = [&](std::string line) {
    ++c.mismatches;
    if (c.diff.size() < max_lines) c.diff.push_back(std::move(line));
  };
  const LaunchState want = compose_expected(k, x, in);
  if (actual.regs.size() != want.regs.size() || actual.smem.size() != want.smem.size()) {
    note(fmt::format("the device returned {} register words and {} tile bytes; expected {} and {}", actual.regs.size(),
                     actual.smem.size(), want.regs.size(), want.smem.size()));
    return c;
  }
  const int words = in.shape.regs;
  auto operand_of = [&](int word) -> std::string {
    for (const MmaOperandInfo* o : {&x.a, &x.b, &x.c, &x.d})
      if (word >= o->first_word && word < o->first_word + o->words())
        return fmt::format("{} word {}", o->name, word - o->first_word);
    return "the move's result";  // the composition's transposing step
  };
  for (std::size_t i = 0; i < want.regs.size(); ++i)
    if (want.regs[i] != actual.regs[i]) {
      const int t = static_cast<int>(i) / words, word = static_cast<int>(i) % words;
      note(fmt::format("warp {} lane {} {}: expected 0x{:08x}, got 0x{:08x}", t / kWarpLanes, t % kWarpLanes,
                       operand_of(word), want.regs[i], actual.regs[i]));
    }
  for (std::size_t i = 0; i + 1 < want.smem.size(); i += 2)
    if (want.smem[i] != actual.smem[i] || want.smem[i + 1] != actual.smem[i + 1]) {
      const int warp = static_cast<int>(i) / kTileBytes, at = static_cast<int>(i) % kTileBytes;
      note(fmt::format("warp {} tile byte {} (row {} col {} of the stored D): expected 0x{:02x}{:02x}, got 0x{:02x}{:02x}",
                       warp, at, at / 16, at % 16 / 2, want.smem[i + 1], want.smem[i], actual.smem[i + 1],
                       actual.smem[i]));
    }
  return c;
}

}  // namespace ptxcts
