// The seam between the pipeline and the instruction kinds. A kind (kinds/matrix_move: ldmatrix,
// stmatrix, movmatrix; kinds/wmma: wmma.load, wmma.store, wmma.mma; kinds/mma: mma.sync) implements
// this once; the catalog, runner and judge ask it what depends on the instructions and never look inside.
// Modelled on VK-GL-CTS's checkSupport / initPrograms / iterate:
//   plan      which kernels the specs call for, and which cases each takes
//   emit      the kernel's PTX, from the kind's skeleton in kernels/
//   prepare   a case's inputs, and the host-side check of what the device gave back
// Two faces: the describing face (the operations its variants name, each with its semantics block's
// reader and checks; its own blocks of the family files and of cases.yaml, read and checked in its
// room through spec/kind_blocks.hpp; its figures and the audit's questions only it can ask, as data
// of kinds/ that judge/ and report/ judge and draw without naming it: kind_figures.hpp,
// kind_statements.hpp) and the running face (plan, emit, prepare).
// What adding a kind costs (CTest house.kind-names measures it: spec/, judge/ and report/ name no
// kind): in its room, kinds/<kind>/ implementing this, and its software GPU for the fake device
// runner beside its tests (harness/tests/kinds/<kind>/<kind>_emulator.cpp); outside it, its line in
// kinds/kinds.cpp, its skeleton in kernels/, its YAML in specs/, its folder in harness/CMakeLists.txt's
// unity folders and, with operations or blocks of its own, its lines in harness/fuzz/fuzz_specs.cpp
// and harness/fuzz/CMakeLists.txt (the spec fuzzer builds spec/ and the kinds' readers alone); for a
// new family, the release's CTest family list (harness/package) and the documents' count of families
// (CTest docs.figures). The conformance tests and the tests' unity folders find its family and its
// tests themselves.
// Measured (CTest house.test-kind-alone): a test kind, a folder harness/tests/kinds/<kind>/ that
// holds a kind itself, is a kind whose room is that folder alone: its kind with its own operation and
// semantics block, which adds itself to the kind list with one line (kinds/kinds.hpp's
// KindRegistration), its skeleton, its family's YAML and its emulator, linked into the tests' fake
// device runner and ptxcts-with-test-kinds only, never the product; CTest kinds.test-kind.<kind>
// takes it through plan, catalog, fake device, reports and audit. It touches no file outside its room.
// May call: spec/, plan/, emit/, model/.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kinds/kind_figures.hpp"
#include "kinds/kind_statements.hpp"
#include "model/comparison.hpp"
#include "model/launch.hpp"
#include "plan/suite.hpp"
#include "spec/kind_blocks.hpp"
#include "spec/ptx_version.hpp"

namespace ptxcts {

// One (kernel, case), prepared on the host: the launch's inputs, and the check of its result.
class PreparedCase {
 public:
  explicit PreparedCase(LaunchInput input) : input(std::move(input)) {}
  virtual ~PreparedCase() = default;
  // The launch's inputs. `ptxcts run` moves them into the job file and puts them back (read from
  // it) for the check, so that a run's cases do not all hold their inputs in memory at once.
  LaunchInput input;
  // Throws std::runtime_error when the reference model cannot say what the result must be.
  virtual CaseOutcome check(const LaunchState& actual) const = 0;
};

class InstructionKind {
 public:
  virtual ~InstructionKind() = default;

  // The describing face: what spec reading and check-specs, the audit and the reports ask of a kind.
  // spec: the operations its variants may name, each with its semantics block's reader
  // (spec/kind_blocks.hpp).
  virtual std::vector<KindOperation> operations() const = 0;
  // spec: its own blocks of the family files, read and checked in its room; none by default.
  virtual std::vector<KindFamilyBlock> family_blocks() const { return {}; }
  // spec: the variants that are this kind's: those whose operation is one of its own.
  virtual bool owns(const Variant& v) const {
    for (auto const& op : operations())
      if (op.name == v.operation) return true;
    return false;
  }
  // spec: its own blocks of cases.yaml, read and checked in its room (spec/kind_blocks.hpp); none by default.
  virtual std::vector<KindCaseBlock> case_blocks() const { return {}; }
  // spec: its variants' own layout block, evaluated by check-specs (spec/kind_blocks.hpp); none by default.
  virtual std::optional<KindLayout> layout() const { return std::nullopt; }

  // What the audit and the reports ask of a kind, as data of kinds/ that judge/ and report/ judge
  // and draw without knowing the kind.
  // report: its fragments' figures as the specs give them, with the words around them
  // (kinds/kind_figures.hpp); none by default.
  virtual std::optional<KindFigures> figures(const SpecSet&) const { return std::nullopt; }
  // report: its name over the register layouts its cases observe where the documents leave them
  // unspecified (CaseResult::observed_layout: "Observed wmma fragment layouts"); "" (by default): none.
  virtual std::string_view observes_layouts() const { return {}; }
  // judge: what it alone asks of the documents, checked on the host (kinds/kind_statements.hpp); none by default.
  virtual std::vector<KindStatement> statements(const SpecSet&) const { return {}; }
  // judge: the specs' texts that cite its fragment sections, besides the claims
  // (judge/fragment_sections.hpp holds them against the syntax); none by default.
  virtual std::vector<std::string> fragment_section_sources(const SpecSet&) const { return {}; }
  // judge: whether its instructions multiply matrices or feed a multiply (their shapes have a k), so
  // that the type x shape product asks them with the multiplies' element types; false by default.
  virtual bool multiplies_matrices() const { return false; }
  // judge: whether the documents let its address operand be a variable ([pv], [pv+16]) besides a
  // register or an immediate; true by default.
  virtual bool documents_variable_addresses() const { return true; }

  // The running face: what the catalog, the runner and the judge ask of a kind.

  // plan: the kernels of this kind's instances (each with kind == this), and the cases a kernel takes.
  virtual std::vector<KernelPlan> plan_kernels(const std::deque<Instance>& instances, const SpecSet& specs) const = 0;
  // The kernels a kind plans once every kind has planned its own, so that they come last in the
  // suite (the ldmatrix/stmatrix kind's round trips, which claims ask for); none by default.
  virtual std::vector<KernelPlan> plan_last(const std::deque<Instance>&, const SpecSet&) const { return {}; }
  virtual bool takes(const KernelPlan& kernel, const CaseSpec& c) const = 0;
  // judge: whether a claim about the variant step `selects` is checked by this kernel.
  virtual bool checks_claim_on(const KernelPlan& kernel, const std::function<bool(const Instance&)>& selects) const = 0;

  // emit: the skeleton's file in kernels/, the kernel's PTX and its instruction text(s) (" ; ").
  virtual std::string_view skeleton() const = 0;
  virtual std::string emit(const std::string& skeleton, const KernelPlan& kernel, const std::string& target,
                           PtxVersion ptx) const = 0;
  virtual std::string instruction_text(const KernelPlan& kernel) const = 0;

  // prepare: throws std::runtime_error when the case cannot be laid out for the kernel.
  virtual std::unique_ptr<PreparedCase> prepare(const CaseSet& set, const CaseSpec& c,
                                                const KernelPlan& kernel) const = 0;
};

}  // namespace ptxcts
