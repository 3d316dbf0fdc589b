#include "run/case_stream.hpp"

#include "util/checked_file.hpp"

namespace ptxcts {

LineJobs write_line_jobs(const std::filesystem::path& file, std::size_t count,
                         const std::function<std::optional<DeviceJob>(std::size_t)>& make, bool stream) {
  LineJobs line;
  CheckedFile out(file);  // a full disk is an error naming the file, never half a job file
  JobFileWriter writer(out);
  auto add = [&](const DeviceJob& job) {
    line.offsets.push_back(writer.add(job));
    line.ids.push_back(job.id);
    line.shapes.push_back(job.input.shape);
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
  out.close();
  return line;
}

}  // namespace ptxcts
