// The installed toolkit as the suite uses it: ptxas, its version, the targets it knows, and
// assembling one PTX text for one target.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spec/ptx_version.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {

struct Toolchain {
  std::string ptxas;                      // path; empty: none at hand (a toolkit known from a catalog)
  std::string version;                    // "13.0.88"
  std::string release;                    // "13.0"
  std::vector<std::string> real_targets;  // sm_* names from `ptxas --help`, in its order
  double timeout_seconds = 300;           // one ptxas run; past it, ptxas is killed (an error, not a verdict)
  // How often ptxas hung (ran past timeout_seconds) in this process, shared by copies. After
  // kHangsBeforeGivingUp hangs the rest is abandoned, so a hanging ptxas costs minutes, not hours
  // of one time limit per batch.
  // Never more than kHangsBeforeGivingUp: the hang that reaches it stops the runs still under way
  // (`abandon`), so that runs side by side cannot hang a third time.
  std::shared_ptr<std::atomic<int>> hangs = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<ChildWatch> abandon = std::make_shared<ChildWatch>();
  static constexpr int kHangsBeforeGivingUp = 2;
  // The newest PTX ISA version this ptxas speaks, read from the binary (`--list-version` where it
  // has it, else the version it names when refusing a module of a version it does not know);
  // {0,0} where unknown (a stand-in built by hand), and then targets.yaml's toolkits: table decides.
  PtxVersion ptx_isa{};
  std::string ptx_isa_read_by;  // "ptxas --list-version", "ptxas on a .version 99.9 module"

  // Runs ptxas with `args` under the time limit, saying on stderr when it hangs; nullopt where it
  // has hung too often already (nothing is run).
  std::optional<ProcessResult> run(const std::vector<std::string>& args) const;
  std::string abandoned() const;  // why a run was not made

  // Finds ptxas (explicit path, else $PTXCTS_PTXAS, else `fallback` (a build's own toolkit), else
  // the one on PATH, else /usr/local/cuda/bin/ptxas) and asks it, each question (--version,
  // --help, ...) under `query_seconds`. No path is compiled in.
  static Toolchain discover(const std::string& explicit_ptxas = "", const std::string& fallback = "",
                            double query_seconds = 60);
};

// What one ptxas run said about a module. Accepted and Rejected are verdicts ptxas was seen to
// give (exit 0 with the cubin written; a non-zero exit with its diagnostics). Error is ptxas
// failing without one: killed by a signal, past the time limit, out of memory, an internal
// error, a non-zero exit with nothing said, exit 0 without the cubin. An error says nothing
// about the PTX, so it is never cached and the next build tries again.
enum class AssemblyState { Accepted, Rejected, Error };

struct AssemblyOutcome {
  AssemblyState state = AssemblyState::Error;
  std::string message;  // what ptxas printed
  std::string
      obtained;  // how the state was obtained: "ptxas exit 255 with a message", "ptxas killed by signal 9 (Killed)"
  bool accepted() const { return state == AssemblyState::Accepted; }
  bool error() const { return state == AssemblyState::Error; }
  std::string why() const;  // for an error: `obtained` and the message's first line
};

// Assembles `ptx_file` for `target` into `cubin_file`.
AssemblyOutcome assemble(const Toolchain& tc, const std::filesystem::path& ptx_file, const std::string& target,
                         const std::filesystem::path& cubin_file);

// Whether ptxas's message says that ptxas itself failed (out of memory, an internal error, a
// crash) rather than that the PTX is wrong: the patterns are kPtxasFailurePatterns in toolchain.cpp.
bool says_ptxas_failed(const std::string& message);

// Parses `ptxas --version` / `ptxas --help` output (exposed for tests).
std::string parse_ptxas_version(const std::string& version_output);
std::vector<std::string> parse_ptxas_targets(const std::string& help_output);
// The newest version `ptxas --list-version` lists (one a line), or nullopt.
std::optional<PtxVersion> parse_ptxas_version_list(const std::string& list_output);
// The version ptxas names as its own when refusing a newer one: "... current version is '8.4'".
std::optional<PtxVersion> parse_ptxas_current_version(const std::string& message);

}  // namespace ptxcts
