#include "run/device_query.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "util/subprocess.hpp"

namespace ptxcts {

namespace {

// A number of the runner's answer, in [lo, hi]: a compute capability of 99999999999 would overflow
// into "sm_-727379978", an ordinal of -1 names no GPU (every case would "crash").
int device_number(const nlohmann::json& d, std::size_t index, const char* field, long long lo, long long hi) {
  const nlohmann::json& v = d.at(field);
  const bool integer = v.is_number_integer() || v.is_number_unsigned();
  const bool in_range = integer && (v.is_number_unsigned() ? v.get<unsigned long long>() <= static_cast<unsigned long long>(hi)
                                                           : v.get<long long>() >= lo && v.get<long long>() <= hi);
  if (!in_range)
    throw std::out_of_range(fmt::format("device {}: \"{}\" is {}; expected an integer from {} to {}", index, field,
                                        v.dump(), lo, hi));
  return static_cast<int>(v.get<long long>());
}

}  // namespace

DeviceQuery parse_device_info(const std::string& text) {
  DeviceQuery q;
  try {
    std::size_t index = 0;
    for (auto const& d : nlohmann::json::parse(text)) {
      q.devices.push_back({.ordinal = device_number(d, index, "ordinal", 0, 1023),
                           .name = d.at("name"),
                           .major = device_number(d, index, "major", 1, 99),
                           .minor = device_number(d, index, "minor", 0, 9),
                           .driver_cuda = d.at("driver_cuda"),
                           .driver_version = d.at("driver_version"),
                           .uuid = d.value("uuid", ""),
                           .pci_bus_id = d.value("pci_bus_id", "")});
      ++index;
    }
  } catch (const nlohmann::json::exception& e) {
    q.devices.clear();
    q.reason = fmt::format("the device runner's answer is not a device list: {}", e.what());
  } catch (const std::out_of_range& e) {
    q.devices.clear();
    q.reason = fmt::format("the device runner's answer is out of range: {}", e.what());
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
