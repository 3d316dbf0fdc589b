// What the audit needs assembled beside every kernel on every target: the version probes (each
// audited kernel one PTX ISA version below its documented minimum, which must fail) and the
// documented-invalid forms and undocumented spellings, each on its target. The audit's policy,
// kept here in the judge stage; the catalog (assemble/catalog.hpp) only assembles what it is
// handed, so whoever builds a catalog asks for these requests and passes them to build_catalog:
//
//   build_catalog(suite, tc, skeletons, audit_requests(suite, tc), dir, jobs);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "assemble/catalog.hpp"
#include "assemble/toolchain.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

// The version probe of one kernel: single-instruction (audited) kernels only, at the version below
// the documented minimum, on a supporting target among `targets` that the version below still
// knows if there is one (portable first); nullopt where there is no such version or target.
std::optional<KernelAtVersion> version_probe(const Suite& suite, const KernelPlan& kernel,
                                             const std::vector<std::string>& targets);

// Each form whose target is in the scope, at the version the spec gives or else the newest this
// toolkit speaks (so that the version is never the reason for a rejection).
std::vector<FormRequest> form_requests(const Suite& suite, const CatalogScope& scope);

// Every probe (in suite order) and form (in spec order) the audit needs from a catalog of `scope`.
CatalogRequests audit_requests(const Suite& suite, const CatalogScope& scope);
// The same for the catalog this toolchain gives (catalog_scope(suite, tc)).
CatalogRequests audit_requests(const Suite& suite, const Toolchain& tc);

}  // namespace ptxcts
