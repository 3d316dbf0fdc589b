// Fault cases shared by GPUs alike. A fault case breaks a documented rule on purpose and costs a
// device runner when the GPU faults (its context is lost); the driver's recovery from a fault is
// the run's slowest part. GPUs of one host with the same name, compute capability and driver give
// such a case the same answer, so by default each fault case runs once per group of alike GPUs,
// the group's GPUs taking turns (case k on the group's GPU k mod n), and every GPU's report has
// every case, the shared ones naming the GPU that ran them (CaseResult::ran_on). `--faults-on-every-gpu`
// runs them on each GPU instead.
#pragma once

#include <string>
#include <vector>

#include "run/device_query.hpp"
#include "run/runner.hpp"

namespace ptxcts {

struct FaultShare {
  unsigned index = 0, of = 1;  // this GPU runs the group's fault cases k with k % of == index
  std::vector<std::size_t> group{};  // the GPUs (positions in the device list) of its group, itself included
  std::string sentence{};            // for the report: where this GPU's fault cases ran
};

// One share per GPU of `gpus` (in their order).
std::vector<FaultShare> share_fault_cases(const std::vector<DeviceInfo>& gpus, bool on_every_gpu);

// How a report names a GPU that ran a case for it: "GPU 1 (GPU-8f0c..., PCI 0000:1a:00.0)".
std::string gpu_label(const DeviceInfo& d);

// Fills every GPU's delegated results (DeviceRun::delegated) from the GPU of its group that ran them,
// which the result then names. `runs[g]` is gpus[g]'s run.
void fill_shared_fault_cases(const std::vector<DeviceInfo>& gpus, const std::vector<FaultShare>& shares,
                             std::vector<DeviceRun*>& runs);

}  // namespace ptxcts
