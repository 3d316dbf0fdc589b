// The contract between `ptxcts run` and a device runner (`ptxcts-device`, or a stand-in such as
// the tests' fake_device_runner): a runner that keeps it can replace the real one.
//
// Command line:
//   RUNNER --info                          prints the GPUs as a JSON array of objects with ordinal,
//                                          name, major, minor, driver_cuda, driver_version; exit 0.
//                                          Any other exit: no usable GPU (its output says why).
//   RUNNER --device N --jobs F --results R [--start K]
//                                          runs jobs K, K+1, ... of the job file F on GPU N.
// Job file (written once by `ptxcts run`, read-only for the runner): the magic "PTXCTSJ2", a u32
//   count, then per job: u32 id, string cubin (absolute path), string entry, string label
//   ("kernel/case"), i32 warps, tile_bytes, steps, regs, then the vectors offsets (u32), smem (u8),
//   regs (u32). Strings are a u32 length and the bytes; vectors a u64 length and the elements;
//   everything little-endian.
// Results file: the runner appends one record per launch, "PCR1", u32 id, u8 ok, string error, the
//   vectors smem and regs, and flushes it before printing the progress line "done ID ok|fault" on
//   stdout (a silent runner is killed by `ptxcts run`'s watchdog: a hung launch is a `timeout`).
//   A record cut short (the runner died while writing) is ignored.
// Exit codes (DeviceExit): 0 every job from K on has its record; 3 a device fault was recorded
//   (the context is unusable) and the runner stopped: `ptxcts run` starts a fresh runner from the
//   next job; 2 bad command line or unreadable job file, 4 no usable device: nothing more can run.
//   Death by a signal, or any other exit, means the launch after the last record killed it: that
//   launch is a `crash`, and a fresh runner goes on from the one after.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/launch.hpp"

namespace ptxcts {

enum DeviceExit : int { kDeviceDone = 0, kDeviceUsage = 2, kDeviceFaulted = 3, kDeviceUnusable = 4 };

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
