#include "run/run_sass.hpp"

#include <set>

namespace ptxcts {

RunSass run_sass(const Catalog& cat, const std::vector<CaseResult>& results) {
  RunSass out{.disassembler = cat.disassembler, .unavailable = cat.sass_unavailable, .kernels = {}};
  std::set<std::pair<std::string, std::string>> seen;
  for (auto const& r : results) {
    if (r.target.empty() || !seen.emplace(r.kernel, r.target).second) continue;
    KernelSass k{
        .kernel = r.kernel, .target = r.target, .opcodes = {}, .expected = {}, .matched = {}, .unavailable = ""};
    const Assembly* a = cat.find(r.kernel, r.target);
    if (!a || !a->sass)
      k.unavailable = cat.sass_unavailable.empty() ? "the catalog has no SASS for it" : cat.sass_unavailable;
    else {
      k.opcodes = a->sass->opcodes;
      k.expected = a->sass->expected;
      k.matched = a->sass->matched;
      k.unavailable = a->sass->unavailable;
    }
    out.kernels.push_back(std::move(k));
  }
  return out;
}

}  // namespace ptxcts
