// libFuzzer target: the device runner's binary readers (run/device_protocol.hpp) on arbitrary
// bytes. The first byte picks the reader: even, read_jobs (a job file; std::runtime_error, as the
// header says, is its clean error); odd, read_results and read_result (a results file: these throw
// nothing, a truncated or foreign record ends the reading); 3 mod 4, parse_timing_line. Anything else is a finding: a
// crash, a sanitizer report, a hang, an exception, unbounded memory. What they read must survive the round trip:
// written back (write_jobs, write_result) and read again, it is the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

#include "run/device_protocol.hpp"

namespace {
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_device_results: %s\n", what);
  std::abort();
}

bool same(const ptxcts::LaunchInput& a, const ptxcts::LaunchInput& b) {
  return a.shape.warps == b.shape.warps && a.shape.tile_bytes == b.shape.tile_bytes && a.shape.steps == b.shape.steps &&
         a.shape.regs == b.shape.regs && a.offsets == b.offsets && a.state.smem == b.state.smem &&
         a.state.regs == b.state.regs;
}

void jobs(const std::string& bytes) {
  std::istringstream in(bytes);
  std::vector<ptxcts::DeviceJob> read;
  try {
    read = ptxcts::read_jobs(in);
  } catch (const std::runtime_error&) { return; }
  std::ostringstream out;
  ptxcts::write_jobs(out, read);
  std::istringstream again_in(out.str());
  std::vector<ptxcts::DeviceJob> again;
  try {
    again = ptxcts::read_jobs(again_in);
  } catch (const std::runtime_error&) { fail("a job file it read, written back, is refused"); }
  if (again.size() != read.size()) fail("a job file written back reads differently (count)");
  for (std::size_t i = 0; i < read.size(); ++i)
    if (again[i].id != read[i].id || again[i].module != read[i].module || again[i].kernel_name != read[i].kernel_name ||
        again[i].label != read[i].label || !same(again[i].input, read[i].input))
      fail("a job file written back reads differently");
}

void results(const std::string& bytes) {
  // One at a time, as `ptxcts run` follows a runner: each record complete, or the stream left where it was.
  {
    std::istringstream in(bytes);
    std::streampos before = in.tellg();
    while (auto r = ptxcts::read_result(in)) {
      std::streampos after = in.tellg();
      if (after <= before) fail("read_result returned a record without moving on");
      before = after;
    }
    if (in.tellg() != before) fail("read_result moved the stream on a record it did not return");
  }
  std::istringstream in(bytes);
  std::vector<ptxcts::DeviceResult> read = ptxcts::read_results(in);
  std::ostringstream out;
  for (auto const& r : read) ptxcts::write_result(out, r);
  std::istringstream again_in(out.str());
  std::vector<ptxcts::DeviceResult> again = ptxcts::read_results(again_in);
  if (again.size() != read.size()) fail("results written back read differently (count)");
  for (std::size_t i = 0; i < read.size(); ++i)
    if (again[i].id != read[i].id || again[i].ok != read[i].ok || again[i].error != read[i].error ||
        again[i].state.smem != read[i].state.smem || again[i].state.regs != read[i].state.regs)
      fail("results written back read differently");
}
// A runner's "timing ..." line (its own clock): parsed or refused; what parses, written back and
// read again, reads the same as its own writing (the writer rounds to microseconds).
void timing(const std::string& bytes) {
  auto t = ptxcts::parse_timing_line(bytes);
  if (!t) return;
  const std::string line = ptxcts::timing_line(*t);
  auto again = ptxcts::parse_timing_line(line);
  if (!again) fail("a timing line it read, written back, is refused");
  if (ptxcts::timing_line(*again) != line) fail("a timing line written back reads differently");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 4 == 3) timing(bytes);
  else if (data[0] % 2 == 0) jobs(bytes);
  else results(bytes);
  return 0;
}
