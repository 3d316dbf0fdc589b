#include "kinds/wmma/wmma_observe.hpp"

#include <fmt/format.h>

#include "kinds/wmma/wmma_info.hpp"
#include "kinds/wmma/wmma_registers.hpp"
#include "spec/layout.hpp"

namespace ptxcts {

std::string observe_wmma_layout(const KernelPlan& k, const LaunchInput& in, const LaunchState& actual) {
  if (k.steps.size() != 1) return "";
  const bool load = k.steps[0]->variant().operation == kWmmaLoad;
  const ElementFormat& f = *wmma_matrix_info(*k.steps[0]).format;
  const Signatures sig = signatures(k, in, load ? actual : in.state, load ? in.state : actual);
  std::string out;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    out += fmt::format("lane {}:", lane);
    for (std::size_t e = 0; e < sig.per_lane; ++e) {
      auto it = sig.element.find(sig.slot[static_cast<std::size_t>(lane) * sig.per_lane + e]);
      out += it == sig.element.end() || it->second.size() != 1
                 ? fmt::format(" {}=?", slot_name(f, e))
                 : fmt::format(" {}=({},{})", slot_name(f, e), it->second[0].first, it->second[0].second);
    }
    out += "\n";
  }
  return out;
}

}  // namespace ptxcts
