#include "toolchain.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "subprocess.hpp"

#ifndef PTXCTS_DEFAULT_PTXAS
#define PTXCTS_DEFAULT_PTXAS "ptxas"
#endif

namespace ptxcts {

std::string parse_ptxas_version(const std::string& out) {
  std::smatch m;
  static const std::regex re(R"(release \d+\.\d+, V(\d+\.\d+\.\d+))");
  if (!std::regex_search(out, m, re)) throw std::runtime_error("cannot read the ptxas version from: " + out.substr(0, 200));
  return m[1];
}

std::vector<std::string> parse_ptxas_targets(const std::string& help) {
  // The --gpu-name option lists "Allowed values for this option: 'compute_75',...,'sm_90a'."
  auto at = help.find("--gpu-name");
  if (at == std::string::npos) throw std::runtime_error("ptxas --help does not describe --gpu-name");
  auto allowed = help.find("Allowed values for this option:", at);
  auto end = help.find("Default value", allowed);
  if (allowed == std::string::npos || end == std::string::npos) throw std::runtime_error("ptxas --help lists no targets for --gpu-name");
  std::string list = help.substr(allowed, end - allowed);
  std::vector<std::string> out;
  static const std::regex re(R"('(sm_\d+[af]?)')");
  for (std::sregex_iterator it(list.begin(), list.end(), re), e; it != e; ++it) out.push_back((*it)[1]);
  if (out.empty()) throw std::runtime_error("ptxas --help lists no sm_* targets");
  return out;
}

Toolchain Toolchain::discover(const std::string& explicit_ptxas) {
  Toolchain tc;
  if (!explicit_ptxas.empty()) tc.ptxas = explicit_ptxas;
  else if (const char* env = std::getenv("PTXCTS_PTXAS"); env && *env) tc.ptxas = env;
  else tc.ptxas = PTXCTS_DEFAULT_PTXAS;
  ProcessResult v = run_process({tc.ptxas, "--version"}, 60);
  if (v.exit_code != 0) throw std::runtime_error(fmt::format("cannot run ptxas ('{}'): {}", tc.ptxas, v.output));
  tc.version = parse_ptxas_version(v.output);
  tc.release = tc.version.substr(0, tc.version.rfind('.'));
  ProcessResult h = run_process({tc.ptxas, "--help"}, 60);
  if (h.exit_code != 0) throw std::runtime_error(fmt::format("'{} --help' failed: {}", tc.ptxas, h.output));
  tc.real_targets = parse_ptxas_targets(h.output);
  return tc;
}

AssemblyOutcome assemble(const Toolchain& tc, const std::filesystem::path& ptx_file, const std::string& target,
                         const std::filesystem::path& cubin_file) {
  ProcessResult r = run_process({tc.ptxas, "-arch=" + target, "-o", cubin_file.string(), ptx_file.string()}, 300);
  AssemblyOutcome out;
  out.accepted = r.exit_code == 0 && !r.timed_out;
  out.message = r.timed_out ? "ptxas did not finish within 300 s" : r.output;
  // Drop the temporary file's name from messages, so that they read the same on every machine.
  for (std::size_t p; (p = out.message.find(ptx_file.string())) != std::string::npos;)
    out.message.replace(p, ptx_file.string().size(), "kernel.ptx");
  while (!out.message.empty() && (out.message.back() == '\n' || out.message.back() == ' ')) out.message.pop_back();
  return out;
}

}  // namespace ptxcts
