#include "run/fault_sharing.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <tuple>

namespace ptxcts {

std::vector<FaultShare> share_fault_cases(const std::vector<DeviceInfo>& gpus, bool on_every_gpu) {
  std::vector<FaultShare> shares(gpus.size());
  std::map<std::tuple<std::string, int, int, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t g = 0; g < gpus.size(); ++g)
    groups[{gpus[g].name, gpus[g].major, gpus[g].minor, gpus[g].driver_version}].push_back(g);
  for (auto const& [key, members] : groups) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      FaultShare& s = shares[members[k]];
      const bool alone = on_every_gpu || members.size() == 1;
      s.index = alone ? 0 : static_cast<unsigned>(k);
      s.of = alone ? 1 : static_cast<unsigned>(members.size());
      s.group = alone ? std::vector<std::size_t>{members[k]} : members;
      std::vector<int> ordinals;
      for (auto m : members) ordinals.push_back(gpus[m].ordinal);
      s.sentence = alone ? (members.size() > 1
                                ? fmt::format("on this GPU (run on every GPU of its kind: --faults-on-every-gpu)")
                                : std::string("on this GPU"))
                         : fmt::format("shared by GPUs {} ({}, driver {}), taking turns; each shared case names the "
                                       "GPU that ran it",
                                       fmt::join(ordinals, ", "), std::get<0>(key), std::get<3>(key));
    }
  }
  return shares;
}

std::string gpu_label(const DeviceInfo& d) {
  std::string ids;
  if (!d.uuid.empty()) ids = d.uuid;
  if (!d.pci_bus_id.empty()) ids += (ids.empty() ? "PCI " : ", PCI ") + d.pci_bus_id;
  return ids.empty() ? fmt::format("GPU {}", d.ordinal) : fmt::format("GPU {} ({})", d.ordinal, ids);
}

void fill_shared_fault_cases(const std::vector<DeviceInfo>& gpus, const std::vector<FaultShare>& shares,
                             std::vector<DeviceRun*>& runs) {
  // Each GPU's own results (not its placeholders), by kernel and case.
  std::vector<std::map<std::pair<std::string, std::string>, const CaseResult*>> ran(gpus.size());
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    std::vector<bool> placeholder(runs[g]->results.size(), false);
    for (std::size_t at : runs[g]->delegated) placeholder[at] = true;
    for (std::size_t k = 0; k < runs[g]->results.size(); ++k)
      if (!placeholder[k]) ran[g][{runs[g]->results[k].kernel, runs[g]->results[k].case_name}] = &runs[g]->results[k];
  }
  for (std::size_t g = 0; g < gpus.size(); ++g)
    for (std::size_t at : runs[g]->delegated) {
      CaseResult& want = runs[g]->results[at];
      for (std::size_t other : shares[g].group) {
        auto found = other == g ? ran[other].end() : ran[other].find({want.kernel, want.case_name});
        if (found == ran[other].end()) continue;
        want = *found->second;
        want.ran_on = gpu_label(gpus[other]);
        break;
      }
    }
}

}  // namespace ptxcts
