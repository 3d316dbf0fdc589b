// Finds the GPUs by asking the device runner (`ptxcts-device --info`), which is the only program
// that loads the CUDA driver: on a machine without one, the answer is a reason, not a crash.
#pragma once

#include <string>
#include <vector>

namespace ptxcts {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int major = 0, minor = 0;
  std::string driver_cuda, driver_version;
  std::string uuid{}, pci_bus_id{};  // "" where the runner does not say (older runners, stand-ins)
  std::string sm() const { return "sm_" + std::to_string(major * 10 + minor); }
};

struct DeviceQuery {
  std::vector<DeviceInfo> devices;
  std::string reason;  // why there are none
};

DeviceQuery query_devices(const std::string& runner);
DeviceQuery parse_device_info(const std::string& json_text);  // exposed for tests

}  // namespace ptxcts
