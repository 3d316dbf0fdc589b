#include "run/device_query.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "util/subprocess.hpp"

namespace ptxcts {

DeviceQuery parse_device_info(const std::string& text) {
  DeviceQuery q;
  try {
    for (auto const& d : nlohmann::json::parse(text))
      q.devices.push_back({.ordinal = d.at("ordinal"),
                           .name = d.at("name"),
                           .major = d.at("major"),
                           .minor = d.at("minor"),
                           .driver_cuda = d.at("driver_cuda"),
                           .driver_version = d.at("driver_version"),
                           .uuid = d.value("uuid", ""),
                           .pci_bus_id = d.value("pci_bus_id", "")});
  } catch (const nlohmann::json::exception& e) {
    q.devices.clear();
    q.reason = fmt::format("the device runner's answer is not a device list: {}", e.what());
  }
  if (q.devices.empty() && q.reason.empty()) q.reason = "the CUDA driver reports no GPU";
  return q;
}

DeviceQuery query_devices(const std::string& runner) {
  ProcessResult r = run_process({runner, "--info"}, 120);
  if (r.exit_code != 0) {
    DeviceQuery q;
    // A runner that cannot load the driver dies before it can explain: say what is missing.
    if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL); !lib) {
      q.reason = "no CUDA driver on this machine (libcuda.so.1 not found)";
      return q;
    } else {
      dlclose(lib);
    }
    std::string out = r.output;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    q.reason = fmt::format("no usable GPU: {}",
                           out.empty() ? fmt::format("the device runner exited with {}", r.exit_code) : out);
    return q;
  }
  return parse_device_info(r.output);
}

}  // namespace ptxcts
