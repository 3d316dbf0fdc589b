// The kernel catalog: every kernel of the suite assembled ahead of time for every real target the
// toolkit knows, with what ptxas said. Kernels of one target go many to a module (one ptxas process
// each; see assembly_batch.hpp), so a cubin holds many entries. Content-addressed (PTX text +
// target + ptxas version), so a rebuild with nothing changed assembles nothing, and relocatable: a
// catalog directory can be copied to another machine and run there.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assemble/toolchain.hpp"
#include "kinds/kinds.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

struct Assembly {
  std::string kernel, target;
  PtxVersion ptx;
  bool accepted = false;
  bool attempted = true;    // false: the toolkit's PTX ISA version cannot express this target/form
  std::string message;      // ptxas's output, or why it was not attempted
  std::string cubin;        // relative to the catalog directory (accepted only)
  std::string ptx_file;     // relative to the catalog directory: the kernel's own module, which
                            // the line numbers in `message` refer to
  std::string instruction;  // the instruction text(s) under test, as emitted
  std::string entry;        // the kernel's entry in `cubin` (accepted only)
  std::string error{};      // non-empty: ptxas failed and gave no verdict (accepted is false): how, and what it said
};

// An assembly that checks the documented minimum PTX ISA version: one version below must fail.
struct VersionProbe {
  std::string kernel, target;
  PtxVersion ptx;         // the version tried (one below the documented minimum)
  PtxVersion documented;  // the documented minimum
  bool accepted = false;
  std::string message;
  std::string error{};  // as Assembly::error
};

// A documented-invalid form or an undocumented spelling, assembled on its target.
struct FormAssembly {
  std::string form, target;
  PtxVersion ptx;
  bool accepted = false;
  std::string message, instruction;
  std::string error{};  // as Assembly::error
};

struct Catalog {
  static constexpr int kSchemaVersion = 3;  // 3: each assembly, probe and form says if ptxas failed on it
  std::string ptxas_version, cuda_release;
  PtxVersion toolkit_ptx;
  std::vector<std::string> targets;  // the real targets used, in ptxas's order
  std::vector<Assembly> assemblies;
  std::vector<VersionProbe> probes;
  std::vector<FormAssembly> forms;

  const Assembly* find(const std::string& kernel, const std::string& target) const;
  // "<what> on <target>: <error>" for every assembly, probe and form ptxas failed on (no verdict).
  std::vector<std::string> errors() const;
};

struct CatalogStats {
  int assembled = 0, cached = 0, not_attempted = 0;  // (kernel, target) pairs, probes and forms
  int ptxas_runs = 0;                                // ptxas processes started
  int errors = 0;                                    // of them, ptxas failed on (no verdict; never cached)
};

// What the catalog covers with this toolkit: the real targets of specs/targets.yaml that this
// ptxas knows (in targets.yaml's order, by architecture) and the PTX ISA version it speaks.
// Throws std::runtime_error if targets.yaml does not say which PTX ISA version the toolkit speaks.
struct CatalogScope {
  std::vector<std::string> targets;
  PtxVersion toolkit_ptx;
};
CatalogScope catalog_scope(const Suite& suite, const Toolchain& tc);

// The newest of the minimum PTX ISA versions of a kernel's instructions: what it is assembled at
// (or the target's minimum, if newer), and its documented minimum.
PtxVersion kernel_min_ptx(const KernelPlan& kernel);

// What the catalog assembles beside every kernel on every target: chosen by the caller, not here.
// The catalog assembles what it is asked to and holds no audit policy; which probes and forms the
// audit needs is the judge stage's call (judge/audit_plan.hpp). assemble/ comes before judge/ and
// must not include it, so the caller asks judge/audit_plan for these requests and hands them over.
// Plain data rather than a callback: what will be assembled can be seen (and tested) beforehand.
// The kernels and forms pointed to are the suite's: they must outlive build_catalog.
struct KernelAtVersion {  // a kernel on a target at a given PTX ISA version: a version probe
  const KernelPlan* kernel = nullptr;
  std::string target;
  PtxVersion ptx;         // the version tried
  PtxVersion documented;  // the documented minimum, recorded beside the verdict
};
struct FormRequest {  // a documented-invalid form or an undocumented spelling
  const AuditForm* form = nullptr;
  std::string target;
  PtxVersion ptx;
};
struct CatalogRequests {
  std::vector<KernelAtVersion> probes;  // become Catalog::probes, in this order
  std::vector<FormRequest> forms;       // become Catalog::forms, in this order
};

// Builds (or brings up to date) the catalog in `dir`, writing dir/manifest.json: every kernel of
// the suite on every target of catalog_scope(), and what `requests` asks for. Only verdicts
// are cached: what ptxas failed on is in the manifest as an error and tried again next time.
// `progress`, if given, hears (done, total) now and then while assembling.
Catalog build_catalog(const Suite& suite, const Toolchain& tc, const KernelSkeletons& skeletons,
                      const CatalogRequests& requests, const std::filesystem::path& dir, int jobs,
                      CatalogStats* stats = nullptr,
                      const std::function<void(std::size_t, std::size_t)>& progress = {});

Catalog load_catalog(const std::filesystem::path& dir);  // throws std::runtime_error naming the file
void save_catalog(const Catalog& c, const std::filesystem::path& dir);

}  // namespace ptxcts
