// The files between `ptxcts run` and the device runner (`ptxcts-device`): a job file of launches,
// and a results file the runner appends to and flushes after every launch, so that a launch that
// kills the runner costs only itself. Binary, little-endian, with a magic and version.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "launch.hpp"

namespace ptxcts {

struct DeviceJob {
  std::uint32_t id = 0;
  std::string cubin;        // absolute path
  std::string kernel_name;  // entry point in the cubin
  std::string label;        // "suite kernel/case", for messages (and for the fake device runner)
  LaunchInput input;
};

struct DeviceResult {
  std::uint32_t id = 0;
  bool ok = false;
  std::string error;  // the CUDA error, when !ok
  LaunchState state;  // when ok
};

void write_jobs(std::ostream& out, const std::vector<DeviceJob>& jobs);
std::vector<DeviceJob> read_jobs(std::istream& in);  // throws std::runtime_error

void write_result(std::ostream& out, const DeviceResult& r);
// Reads the next complete result; on a truncated record, leaves the stream where it was.
std::optional<DeviceResult> read_result(std::istream& in);
// Reads every complete result; a truncated last record (the runner died mid-write) is dropped.
std::vector<DeviceResult> read_results(std::istream& in);

}  // namespace ptxcts
