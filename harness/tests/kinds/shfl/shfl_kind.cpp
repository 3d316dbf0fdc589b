#include "kinds/shfl/shfl_kind.hpp"

#include <fmt/format.h>

#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "emit/skeleton.hpp"
#include "kinds/kinds.hpp"
#include "spec/layout.hpp"
#include "spec/spec_error.hpp"

namespace ptxcts {
namespace {

constexpr int kTileBytes = 4;  // the kernel moves no memory: one word per warp, which must come back unchanged
constexpr std::uint32_t kPoison = 0xdead0000;

// The variant's semantics block `shfl:`: the manual's rule for the mode, as its pseudocode gives it.
struct ShflSemantics : VariantSemantics {
  std::string mode;          // "idx": j = minLane | (bval[4:0] & ~segmask[4:0]); pval = (j <= maxLane)
  std::string out_of_range;  // "own": if (!pval) j = lane
  std::string source;
};

// One word of the block that must be the one this kind runs.
std::string read_word(const YamlReader& block, const char* key, const char* expected) {
  const std::string word = block.at(key).str();
  if (word != expected) block.at(key).fail(fmt::format("expected {} (the one this kind runs) but found '{}'", expected, word));
  return word;
}

// `shfl:` of a shfl-idx variant; a generic fragment layout is no shfl's.
std::shared_ptr<const VariantSemantics> read_shfl_block(const YamlReader& variant, const Variant&,
                                                        const std::set<std::string>&) {
  for (const char* k : {"matrix", "row_alignment", "address_lanes", "fragment", "fragments"})
    if (variant.has(k)) variant.at(k).fail(fmt::format("a shfl-idx variant has no '{}': its semantics is 'shfl'", k));
  if (!variant.has("shfl")) variant.fail("a shfl-idx variant needs its semantics block 'shfl' (mode, out_of_range, source)");
  YamlReader block = variant.at("shfl");
  block.expect_map({"mode", "out_of_range", "source"});
  auto s = std::make_shared<ShflSemantics>();
  s->mode = read_word(block, "mode", "idx");
  s->out_of_range = read_word(block, "out_of_range", "own");
  s->source = block.at("source").str();
  return s;
}

// The lane whose a lane `lane` receives, by its own b and c: the block's rule, the manual's pseudocode
// for .idx ("j = minLane | (bval[4:0] & ~segmask[4:0]); pval = (j <= maxLane)"; "if (!pval) j = lane").
int source_lane(const ShflSemantics& rule, int lane, std::uint32_t b, std::uint32_t c) {
  if (rule.mode != "idx" || rule.out_of_range != "own")
    throw std::runtime_error("shfl: no reference model for mode " + rule.mode + ", out of range " + rule.out_of_range);
  const std::uint32_t l = static_cast<std::uint32_t>(lane), bval = b & 0x1f, cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
  const std::uint32_t max_lane = (l & segmask) | (cval & ~segmask), min_lane = l & segmask;
  const std::uint32_t j = min_lane | (bval & ~segmask);
  return j <= max_lane ? static_cast<int>(j) : lane;
}

// Warp w's c: segments of 32 >> (w % 4) lanes (segmask 32 - width, as __shfl_sync's width sets it);
// the clamp 31 for unique data, else random (a source above it: the lane keeps its own a).
std::uint32_t warp_c(int w, bool unique, std::mt19937_64& rng) {
  const std::uint32_t width = 32u >> (w % 4), clamp = unique ? 31u : static_cast<std::uint32_t>(rng() & 0x1f);
  return ((32u - width) << 8) | clamp;
}

// Every lane's d poisoned; a distinct per thread (unique) or random; b a permutation of the lanes with
// bits above [4:0] set on odd lanes, which the manual's b[4:0] ignores (unique), or random bits.
LaunchInput shfl_input(const CaseSet& set, const CaseSpec& c) {
  LaunchInput in;
  in.shape = {.warps = set.warps, .tile_bytes = kTileBytes, .steps = 1, .regs = kShflRegisters};
  const std::size_t threads = static_cast<std::size_t>(in.shape.threads());
  in.offsets.assign(threads, 0);
  in.state.smem.resize(static_cast<std::size_t>(set.warps * kTileBytes));
  for (std::size_t i = 0; i < in.state.smem.size(); ++i) in.state.smem[i] = static_cast<std::uint8_t>(0xa5 ^ i);
  in.state.regs.resize(threads * kShflRegisters);
  std::mt19937_64 rng(c.seed);
  const bool unique = c.data == DataKind::Unique;
  for (int w = 0; w < set.warps; ++w) {
    const std::uint32_t cw = warp_c(w, unique, rng);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::uint32_t t = static_cast<std::uint32_t>(w * kWarpLanes + lane), l = static_cast<std::uint32_t>(lane);
      std::uint32_t* r = &in.state.regs[t * kShflRegisters];
      r[kShflD] = kPoison | t;
      r[kShflA] = unique ? 0x5f000000u | (t << 8) | l : static_cast<std::uint32_t>(rng());
      r[kShflB] = unique ? ((l * 7 + 3 + static_cast<std::uint32_t>(w)) % 32) | (l % 2 ? l << 5 : 0)
                         : static_cast<std::uint32_t>(rng());
      r[kShflC] = cw;
    }
  }
  return in;
}

// Each lane's d against a of the lane the manual's rule names; a, b, c and the tiles unchanged.
Comparison check_shfl(const ShflSemantics& rule, const LaunchInput& in, const LaunchState& got,
                      std::size_t max_lines = 16) {
  Comparison out;
  auto differ = [&](std::string line) {
    if (out.diff.size() < max_lines) out.diff.push_back(std::move(line));
    ++out.mismatches;
  };
  const char* names[] = {"d", "a", "b", "c"};
  for (int w = 0; w < in.shape.warps; ++w)
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const std::size_t t = static_cast<std::size_t>(w * kWarpLanes + lane), at = t * kShflRegisters;
      const int j = source_lane(rule, lane, in.state.regs[at + kShflB], in.state.regs[at + kShflC]);
      for (int r = 0; r < kShflRegisters; ++r) {
        const std::uint32_t want = r == kShflD ? in.state.regs[(t - static_cast<std::size_t>(lane) + static_cast<std::size_t>(j)) * kShflRegisters + kShflA]
                                               : in.state.regs[at + static_cast<std::size_t>(r)];
        const std::uint32_t have = got.regs[at + static_cast<std::size_t>(r)];
        if (have != want)
          differ(fmt::format("warp {} lane {} {}: expected {:#010x}{}, got {:#010x}", w, lane, names[r], want,
                             r == kShflD ? fmt::format(" (lane {}'s a)", j) : " (unchanged)", have));
      }
    }
  if (got.smem != in.state.smem) differ("shared memory: changed, though the kernel writes none");
  return out;
}

class ShflCase : public PreparedCase {
 public:
  ShflCase(LaunchInput in, const ShflSemantics& rule) : PreparedCase(std::move(in)), rule_(rule) {}
  CaseOutcome check(const LaunchState& actual) const override {
    if (actual.regs.size() != input.state.regs.size() || actual.smem.size() != input.state.smem.size())
      throw std::runtime_error("shfl: the device gave back a state of another size than the launch's");
    return {.comparison = check_shfl(rule_, input, actual)};
  }

 private:
  const ShflSemantics& rule_;  // the variant's, which the suite's specs hold
};

class ShflKind : public InstructionKind {
 public:
  // shfl-idx, run: no address; its operands d, a, b and c (the syntax's {d}, {a}, {b}, {c}); its block
  // `shfl`. shfl, the syntax of every mode with b and c immediates as the audit spells it ({dst},
  // {src}): syntax and requirements only, asked of ptxas by the audit, planned no kernel.
  std::vector<KindOperation> operations() const override {
    return {{.name = "shfl-idx", .addressed = false, .multiplies = true, .block = "shfl", .read = read_shfl_block},
            {.name = "shfl", .addressed = false}};
  }

  std::vector<KernelPlan> plan_kernels(const std::deque<Instance>& instances, const SpecSet&) const override {
    std::vector<KernelPlan> out;
    for (auto const& inst : instances)
      if (inst.variant().semantics_as<ShflSemantics>())
        out.push_back(KernelPlan::of(*this, file_safe(inst.id()), inst.variant().family, {&inst}));
    return out;
  }
  // The top-level cases of contiguous rows, none of a fault or of some qualifiers only: the data
  // kinds (unique, random) and their seeds are what this kind reads of a case.
  bool takes(const KernelPlan&, const CaseSpec& c) const override {
    return c.block.empty() && c.fault == Fault::None && c.only.empty() && c.undefined.empty() &&
           c.rows == RowPlacement::Contiguous && !c.poison_unused;
  }
  bool checks_claim_on(const KernelPlan& k, const std::function<bool(const Instance&)>& selects) const override {
    return k.steps.size() == 1 && selects(*k.steps[0]);
  }

  std::string_view skeleton() const override { return "shfl.ptx.in"; }
  std::string emit(const std::string& skeleton, const KernelPlan& k, const std::string& target,
                   PtxVersion ptx) const override {
    return fill_skeleton(skeleton, {{"KERNEL_NAME", k.name},
                                    {"PTX_VERSION", ptx.str()},
                                    {"TARGET", target},
                                    {"BODY", "    " + instruction_text(k) + "\n"}});
  }
  std::string instruction_text(const KernelPlan& k) const override {
    std::string text = k.steps.front()->text();
    fill_placeholder(text, "{d}", fmt::format("%frag{}", kShflD));
    fill_placeholder(text, "{a}", fmt::format("%frag{}", kShflA));
    fill_placeholder(text, "{b}", fmt::format("%frag{}", kShflB));
    fill_placeholder(text, "{c}", fmt::format("%frag{}", kShflC));
    return text;
  }

  std::unique_ptr<PreparedCase> prepare(const CaseSet& set, const CaseSpec& c, const KernelPlan& k) const override {
    const ShflSemantics* rule = k.steps.front()->variant().semantics_as<ShflSemantics>();
    if (!rule) throw std::runtime_error("shfl: variant " + k.steps.front()->variant().name + " has no 'shfl' block");
    return std::make_unique<ShflCase>(shfl_input(set, c), *rule);
  }
};

}  // namespace

const InstructionKind& shfl_kind() {
  static const ShflKind kind;
  return kind;
}

// The kind list's line: this kind joins the programs this file is linked into (kinds/kinds.hpp).
const KindRegistration shfl_registered{shfl_kind()};

}  // namespace ptxcts
