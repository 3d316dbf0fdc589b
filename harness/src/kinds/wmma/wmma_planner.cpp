#include "kinds/wmma/wmma_planner.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "kinds/wmma/wmma_axes.hpp"
#include "kinds/wmma/wmma_cases.hpp"
#include "kinds/wmma/wmma_info.hpp"

namespace ptxcts {
namespace {

std::string option_text(const Instance& inst, const std::string& axis) {
  for (auto const& a : inst.variant().axes)
    if (a.name == axis) return inst.option(axis).text;
  return "";
}
std::string ss_text(const Instance& inst) { return option_text(inst, kWmmaStateSpaceAxis); }

// Where the tiles of a kernel live: .global forms need global memory; the others use shared memory,
// except generic single-instruction kernels, which point into global memory (round trips and
// products point generic addresses into shared memory, so both are covered).
std::string memory_for(const Instance& inst, bool single) {
  if (inst.space() == "global") return "global";
  if (inst.space() == "generic" && single) return "global";
  return "shared";
}

WmmaFragment fragment_of(const WmmaMatrixInfo& m) { return {.registers = m.registers, .wide = m.register_bits == 64}; }

// The load or store instance of `matrix` with the given shape, type, layout, state space and stride operand.
const Instance* find_memory_instance(const std::deque<Instance>& all, const std::string& matrix,
                                     const std::string& shape, int rows, int cols, const ElementFormat* f,
                                     bool col_major, const std::string& ss, bool stride) {
  for (auto const& inst : all) {
    if (!inst.variant().semantics_as<WmmaMatrix>() || inst.variant().semantics_as<WmmaMatrix>()->matrix != matrix ||
        option_text(inst, kWmmaShapeAxis) != shape)
      continue;
    WmmaMatrixInfo m = wmma_matrix_info(inst);
    if (m.rows == rows && m.cols == cols && m.format == f && m.col_major == col_major && ss_text(inst) == ss &&
        m.stride_operand == stride)
      return &inst;
  }
  return nullptr;
}

bool same_except_layout(const Instance& x, const Instance& y) {
  for (auto const& a : x.variant().axes)
    if (a.name != kWmmaLayoutAxis && !y.has_option(a.name, x.option(a.name).text)) return false;
  return true;
}

// Single instructions: a kernel per wmma.load and wmma.store instance.
void plan_singles(const InstructionKind& kind, const std::deque<Instance>& instances, std::vector<KernelPlan>& out) {
  for (auto const& inst : instances) {
    if (!inst.variant().semantics_as<WmmaMatrix>()) continue;
    KernelPlan k = KernelPlan::of(kind, file_safe(inst.id()), inst.variant().family, {&inst});
    k.kind_data = WmmaKernel{.memory = memory_for(inst, true),
                             .fragments = {fragment_of(wmma_matrix_info(inst))},
                             .bindings = {{.region = 0, .fragments = {0}}}};
    out.push_back(std::move(k));
  }
}

// The kernels of the cases whose lanes 16 to 31 leave the instruction (undefined): per (lanes shape,
// instance of the case's variant its 'where' admits), the single instruction's kernel with the code
// around it, named <single>.upper_..., not audited (the single kernel is).
void plan_lanes_singles(const InstructionKind& kind, const std::deque<Instance>& instances, const SpecSet& specs,
                        std::vector<KernelPlan>& out) {
  std::set<std::string> names;
  for (auto const& c : specs.cases.cases) {
    const WmmaCaseOptions o = wmma_case_options(c);
    if (c.block != "wmma" || o.lanes.lanes == LanesShape::All) continue;
    for (auto const& inst : instances) {
      if (!inst.variant().semantics_as<WmmaMatrix>() || inst.variant().name != o.variant || !lanes_admits(inst, c.only))
        continue;
      const std::string name = file_safe(inst.id() + "." + lanes_shape_name(o.lanes.lanes));
      if (!names.insert(name).second) continue;
      KernelPlan k = KernelPlan::of(kind, name, inst.variant().family, {&inst});
      k.audited = false;
      k.kind_data = WmmaKernel{.memory = memory_for(inst, true),
                               .fragments = {fragment_of(wmma_matrix_info(inst))},
                               .bindings = {{.region = 0, .fragments = {0}}},
                               .lanes = o.lanes.lanes,
                               .other = lanes_other_form(instances, inst, o.lanes.other_form)};
      out.push_back(std::move(k));
    }
  }
}

// Round trips: for each wmma.load.c .row instance, its .col twin and the matching stores.
void plan_roundtrips(const InstructionKind& kind, const std::deque<Instance>& instances, std::vector<KernelPlan>& out) {
  for (auto const& c_row : instances) {
    if (!c_row.variant().semantics_as<WmmaMatrix>() || c_row.variant().semantics_as<WmmaMatrix>()->matrix != "c")
      continue;
    WmmaMatrixInfo c = wmma_matrix_info(c_row);
    if (c.col_major) continue;
    const std::string ss = ss_text(c_row), shape = option_text(c_row, kWmmaShapeAxis);
    const Instance* c_col =
        find_memory_instance(instances, "c", shape, c.rows, c.cols, c.format, true, ss, c.stride_operand);
    const Instance* d_row =
        find_memory_instance(instances, "d", shape, c.rows, c.cols, c.format, false, ss, c.stride_operand);
    const Instance* d_col =
        find_memory_instance(instances, "d", shape, c.rows, c.cols, c.format, true, ss, c.stride_operand);
    if (!c_col || !d_row || !d_col || !same_except_layout(c_row, *c_col))
      throw std::logic_error("specs: no wmma.load.c .col / wmma.store.d twin for " + c_row.id());
    // Judged by the spec's claims that select wmma.load.c / wmma.store.d cases, like any other kernel.
    KernelPlan k = KernelPlan::of(kind, file_safe("roundtrip." + c_row.id()), c_row.variant().family,
                                  {&c_row, c_col, d_row, d_col, d_row, d_col});
    k.audited = false;
    // Region 0 loaded .row into one fragment and .col into the other; each stored .row and .col
    // into regions 1 to 4 (the steps above, in order).
    enum : int { kLoadedRow, kLoadedCol };
    k.kind_data = WmmaKernel{.memory = memory_for(c_row, false),
                             .fragments = {fragment_of(c), fragment_of(c)},
                             .bindings = {{.region = 0, .fragments = {kLoadedRow}},
                                          {.region = 0, .fragments = {kLoadedCol}},
                                          {.region = 1, .fragments = {kLoadedRow}},
                                          {.region = 2, .fragments = {kLoadedRow}},
                                          {.region = 3, .fragments = {kLoadedCol}},
                                          {.region = 4, .fragments = {kLoadedCol}}}};
    out.push_back(std::move(k));
  }
}

// Products: the state spaces cases.yaml names (wmma: product_state_spaces), in turn.
void plan_products(const InstructionKind& kind, const std::deque<Instance>& instances, const SpecSet& specs,
                   std::vector<KernelPlan>& out) {
  const std::vector<std::string>& spaces = wmma_case_settings(specs.cases).product_state_spaces;
  std::size_t turn = 0;
  for (auto const& mma : instances) {
    if (!mma.variant().semantics_as<WmmaMma>()) continue;
    WmmaMmaInfo x = wmma_mma_info(mma);
    const std::string shape = option_text(mma, kWmmaShapeAxis);
    const std::string ss = spaces[turn++ % spaces.size()];
    const Instance* a = find_memory_instance(instances, "a", shape, x.m, x.k, x.a.format, x.a.col_major, ss, true);
    const Instance* b = find_memory_instance(instances, "b", shape, x.k, x.n, x.b.format, x.b.col_major, ss, true);
    const Instance* c = find_memory_instance(instances, "c", shape, x.m, x.n, x.c.format, false, ss, true);
    const Instance* d = find_memory_instance(instances, "d", shape, x.m, x.n, x.d.format, false, ss, true);
    if (!a || !b || !c || !d) throw std::logic_error("specs: no wmma.load/wmma.store forms to feed " + mma.id());
    KernelPlan k = KernelPlan::of(kind, file_safe(mma.id()), mma.variant().family, {a, b, c, &mma, d});
    k.subject = 3;
    // A, B and C loaded from regions 0, 1 and 2; D = A * B + C (the mma's operands in its syntax's
    // order {d}, {a}, {b}, {c}; it has no address, so its region is unused); D stored into region 3.
    enum : int { kA, kB, kC, kD };
    k.kind_data = WmmaKernel{.memory = memory_for(*a, false),
                             .fragments = {{.registers = x.a.registers, .wide = x.a.register_bits == 64},
                                           {.registers = x.b.registers, .wide = x.b.register_bits == 64},
                                           {.registers = x.c.registers, .wide = x.c.register_bits == 64},
                                           {.registers = x.d.registers, .wide = x.d.register_bits == 64}},
                             .bindings = {{.region = 0, .fragments = {kA}},
                                          {.region = 1, .fragments = {kB}},
                                          {.region = 2, .fragments = {kC}},
                                          {.region = 0, .fragments = {kD, kA, kB, kC}},
                                          {.region = 3, .fragments = {kD}}}};
    out.push_back(std::move(k));
  }
}

}  // namespace

std::vector<KernelPlan> plan_wmma_kernels(const InstructionKind& kind, const std::deque<Instance>& instances,
                                          const SpecSet& specs) {
  std::vector<KernelPlan> out;
  plan_singles(kind, instances, out);
  plan_roundtrips(kind, instances, out);
  plan_products(kind, instances, specs, out);
  plan_lanes_singles(kind, instances, specs, out);
  return out;
}

namespace {

// The cases of what the manual leaves undefined take single loads or stores of their variant (single
// loads where they name none), on their lanes shape's kernel (the others on no such kernel), and
// those of a stride a stride operand; the rest take any kernel.
bool wmma_takes_single_load(const KernelPlan& k, const WmmaCaseOptions& o) {
  if (wmma_kernel(k).lanes != o.lanes.lanes) return false;
  if (!o.single_load()) return true;
  if (k.steps.size() != 1) return false;
  if (o.variant.empty() ? k.steps[0]->variant().operation != kWmmaLoad : k.steps[0]->variant().name != o.variant)
    return false;
  const WmmaMatrixInfo m = wmma_matrix_info(*k.steps[0]);
  const bool stride = o.below_default_stride || o.upper_lanes == WmmaCaseOptions::Lanes::OtherStride;
  return !stride || m.stride_operand;
}

}  // namespace

bool wmma_takes(const KernelPlan& k, const CaseSpec& c) {
  if (c.block != "wmma") return false;
  for (auto const& [axis, texts] : c.only) {
    bool seen = false;
    for (auto const* s : k.steps) {
      const bool has = std::any_of(s->variant().axes.begin(), s->variant().axes.end(),
                                   [&axis = axis](auto const& a) { return a.name == axis; });
      if (!has) continue;
      seen = true;
      if (std::find(texts.begin(), texts.end(), s->option(axis).text) == texts.end()) return false;
    }
    if (!seen) return false;
  }
  const bool product = std::any_of(k.steps.begin(), k.steps.end(),
                                   [](const Instance* s) { return s->variant().semantics_as<WmmaMma>() != nullptr; });
  if (product && c.data == DataKind::Unique) return false;  // unique bit patterns make inexact products
  if (wmma_case_options(c).overflow && !product) return false;
  if (wmma_case_options(c).wide_stride && !wmma_matrix_info(*k.steps[0]).stride_operand) return false;
  if (!wmma_takes_single_load(k, wmma_case_options(c))) return false;
  if (c.fault != Fault::None) {
    if (k.steps.size() != 1) return false;
    WmmaMatrixInfo m = wmma_matrix_info(*k.steps[0]);
    const int half = m.alignment() / 2;
    if (half < 1) return false;
    if (c.fault == Fault::MisalignedStride && (!m.stride_operand || (half * 8) % m.format->bits != 0)) return false;
    // The edge of the rule: only where the manual allows rows less than 16-byte aligned.
    const int default_bytes = m.default_stride() * m.format->bits / 8;
    if (c.fault == Fault::MinimalAlignmentAddress && m.alignment() % 16 == 0) return false;
    if (c.fault == Fault::MinimalAlignmentStride &&
        (!m.stride_operand || (default_bytes + m.alignment()) % 16 == 0 || (m.alignment() * 8) % m.format->bits != 0))
      return false;
  }
  return true;
}

}  // namespace ptxcts
