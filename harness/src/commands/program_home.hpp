// Where the suite's own files are, found from where the program itself lies: a release package
// (<prefix>/bin/ptxcts beside <prefix>/share/ptxcts/) or a build tree (build/harness/ptxcts, with the
// source tree's specs and kernels and the build's catalog at the relative places the build gave).
// No path of the machine that built the program is compiled in: a build or a package copied or
// moved elsewhere uses its own files, and a package needs no source tree, compiler or ptxas.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

// The build tree's places relative to the program's folder (compile definitions of the build).
struct BuildLayout {
  std::string source_dir{}, catalog_dir{}, reports_dir{}, device_runner{};
};

struct ProgramHome {
  enum class Kind { Release, Build } kind = Kind::Build;
  std::filesystem::path prefix;  // release: the package's root (bin/, share/ptxcts/)
  std::filesystem::path share;   // release: <prefix>/share/ptxcts
  std::filesystem::path specs, kernels, catalog, reports, runner;
  // A build's own ptxas (the one CMake found, written beside the program as build-toolkit.txt), so
  // that the build's tests use it wherever the toolkit lies; empty in a release.
  std::string build_ptxas;
  bool release() const { return kind == Kind::Release; }
};

// `exe`: the program's own path (/proc/self/exe). A folder `<exe>/../share/ptxcts` makes it a
// release; else the build's relative places. A release writes its reports to ./ptxcts-reports
// (its own folders may be read-only, e.g. under /usr from the .deb).
ProgramHome find_program_home(const std::filesystem::path& exe, const BuildLayout& build);

// This process's own path, or "" where /proc cannot say.
std::filesystem::path this_program();

}  // namespace ptxcts
