// The installed toolkit as the suite uses it: ptxas, its version, the targets it knows, and
// assembling one PTX text for one target.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ptxcts {

struct Toolchain {
  std::string ptxas;                       // path
  std::string version;                     // "13.0.88"
  std::string release;                     // "13.0"
  std::vector<std::string> real_targets;   // sm_* names from `ptxas --help`, in its order

  // Finds ptxas (explicit path, else $PTXCTS_PTXAS, else the build's toolkit, else PATH) and asks it.
  static Toolchain discover(const std::string& explicit_ptxas = "");
};

struct AssemblyOutcome {
  bool accepted = false;
  std::string message;  // what ptxas printed
};

// Assembles `ptx_file` for `target` into `cubin_file`.
AssemblyOutcome assemble(const Toolchain& tc, const std::filesystem::path& ptx_file, const std::string& target,
                         const std::filesystem::path& cubin_file);

// Parses `ptxas --version` / `ptxas --help` output (exposed for tests).
std::string parse_ptxas_version(const std::string& version_output);
std::vector<std::string> parse_ptxas_targets(const std::string& help_output);

}  // namespace ptxcts
