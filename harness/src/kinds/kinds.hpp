// Every instruction kind, and the pipeline's one switch on them: which kind a variant is (a
// kernel names its own: KernelPlan::kind); the list is the product's, which a test's program may
// extend with a kind of its own (KindRegistration). The suite is built here, each kind planning
// its kernels; the catalog emits through here.
// May call: kinds/*, and what they may call.
#pragma once

#include <string>
#include <vector>

#include "emit/skeleton.hpp"
#include "kinds/instruction_kind.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// In planning order: the suite's kernels come kind by kind in this order. The product's kinds are
// kinds.cpp's list; a program may add its own after them (KindRegistration).
const std::vector<const InstructionKind*>& instruction_kinds();
// A kind a program adds to the list, from a constant at namespace scope in the kind's own file:
//   const KindRegistration registered{my_kind()};
// Linked into a test's programs only (harness/tests/kinds/<kind>/, a test kind), never the product.
// Throws std::logic_error once the list has been read (a registration that would come too late).
struct KindRegistration {
  explicit KindRegistration(const InstructionKind& kind);
};
// Throws std::logic_error when no kind owns it (a spec the loader should have refused).
const InstructionKind& kind_of(const Variant& v);
inline const InstructionKind& kind_of(const KernelPlan& k) { return *k.kind; }

// The describing face's figures and audit questions, asked of every kind in the kinds' order
// (instruction_kind.hpp): the figures of the kinds that have some; every kind's statements; the
// texts citing fragment sections; the names of the kinds whose cases observe layouts, joined by
// " and " ("" if none).
std::vector<KindFigures> kind_figures(const SpecSet& specs);
std::vector<KindStatement> kind_statements(const SpecSet& specs);
std::vector<std::string> kind_fragment_section_sources(const SpecSet& specs);
std::string layout_observers();

// Every instance of every variant; each kind's kernels; then what each kind plans last.
Suite build_suite(SpecSet specs);

// A kernel, emitted with its kind's skeleton; and its instruction text(s).
std::string emit_kernel_ptx(const KernelSkeletons& skeletons, const KernelPlan& kernel, const std::string& target,
                            PtxVersion ptx);
std::string kernel_instruction_text(const KernelPlan& kernel);

}  // namespace ptxcts
