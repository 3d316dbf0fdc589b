#include "run/case_stream.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

namespace ptxcts {

LineJobs write_line_jobs(const std::filesystem::path& file, std::size_t count,
                         const std::function<std::optional<DeviceJob>(std::size_t)>& make, bool stream) {
  LineJobs line;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  JobFileWriter writer(out);
  auto add = [&](const DeviceJob& job) {
    line.offsets.push_back(writer.add(job));
    line.ids.push_back(job.id);
  };
  if (stream) {
    for (std::size_t k = 0; k < count; ++k)
      if (std::optional<DeviceJob> job = make(k)) add(*job);  // its inputs freed here, before the next is made
  } else {
    std::vector<DeviceJob> all;
    for (std::size_t k = 0; k < count; ++k)
      if (std::optional<DeviceJob> job = make(k)) all.push_back(std::move(*job));
    for (auto const& job : all) add(job);
  }
  writer.finish();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the job file", file.string()));
  return line;
}

}  // namespace ptxcts
