#include "commands/program_home.hpp"

#include <string>

#include "util/file_text.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

fs::path this_program() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

ProgramHome find_program_home(const fs::path& exe, const BuildLayout& build) {
  ProgramHome h;
  const fs::path dir = exe.empty() ? fs::path(".") : exe.parent_path();
  std::error_code ec;
  if (fs::is_directory(dir / ".." / "share" / "ptxcts", ec)) {
    h.kind = ProgramHome::Kind::Release;
    h.prefix = (dir / "..").lexically_normal();
    h.share = h.prefix / "share" / "ptxcts";
    h.specs = h.share / "specs";
    h.kernels = h.share / "kernels";
    h.catalog = h.share / "catalog";
    h.reports = fs::current_path(ec) / "ptxcts-reports";
    h.runner = dir / "ptxcts-device";
    return h;
  }
  auto beside = [&](const std::string& relative) { return (dir / relative).lexically_normal(); };
  h.specs = beside(build.source_dir + "/specs");
  h.kernels = beside(build.source_dir + "/kernels");
  h.catalog = beside(build.catalog_dir);
  h.reports = beside(build.reports_dir);
  h.runner = beside(build.device_runner);
  // One line the build wrote: the ptxas it was configured with.
  const std::string toolkit =
      try_read_file_text(dir / "build-toolkit.txt", std::size_t{64} << 10, "the build's ptxas, one line").value_or("");
  h.build_ptxas = toolkit.substr(0, toolkit.find('\n'));
  return h;
}

}  // namespace ptxcts
