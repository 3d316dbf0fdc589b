// One device line's job file, written a case at a time: each case's launch inputs are made (by its
// kind) just before its job is written and dropped once written, so that `ptxcts run` holds one
// case's inputs at a time, not the suite's (the check reads them back from the file). The naive
// way, every case made first and the file written after, stays selectable for comparison.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "run/device_protocol.hpp"

namespace ptxcts {

struct LineJobs {
  std::vector<std::uint32_t> ids;      // job k's id
  std::vector<std::uint64_t> offsets;  // where job k starts in the file (for read_job_at)
  std::vector<LaunchShape> shapes;     // job k's shape (the sizes of the images its record must give back)
};

// `make(k)`, for k < count in order, gives the k-th case's job, or nullopt where it has none (its
// data could not be made). stream false: all are made before any is written (the naive way).
// Throws std::runtime_error naming the file if it cannot be written.
LineJobs write_line_jobs(const std::filesystem::path& file, std::size_t count,
                         const std::function<std::optional<DeviceJob>(std::size_t)>& make, bool stream = true);

}  // namespace ptxcts
