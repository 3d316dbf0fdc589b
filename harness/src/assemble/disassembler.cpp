#include "assemble/disassembler.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <regex>
#include <stdexcept>
#include <tuple>

#include "util/subprocess.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

std::tuple<int, int, int> disassembler_version_key(const std::string& v) {
  int a = 0, b = 0, c = 0;
  std::sscanf(v.c_str(), "%d.%d.%d", &a, &b, &c);
  return {a, b, c};
}


}  // namespace

std::string Disassembler::describe() const {
  return note.empty() ? fmt::format("{} {}", tool, version) : fmt::format("{} {} ({})", tool, version, note);
}

std::optional<Disassembler> probe_disassembler(const fs::path& path, std::string* why) {
  auto refuse = [&](std::string reason) -> std::optional<Disassembler> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return refuse("it is not a file");
  if (::access(path.c_str(), X_OK) != 0) return refuse("it is not executable");
  ProcessResult v = run_process({path.string(), "--version"}, 60);
  // "Cuda compilation tools, release 13.5, V13.5.37": the release and the version, as ptxas says them.
  std::smatch m;
  static const std::regex re(R"(release (\d+\.\d+), V(\d+\.\d+\.\d+))");
  std::string said = v.output.substr(0, v.output.find('\n')).substr(0, 120);
  if (v.timed_out) return refuse("its --version ran past 60 s");
  if (v.exit_code != 0 || v.signal)
    return refuse(fmt::format("its --version {} (\"{}\")",
                              v.signal ? fmt::format("was killed by signal {}", v.signal)
                                       : fmt::format("exited with {}", v.exit_code),
                              said));
  if (!std::regex_search(v.output, m, re))
    return refuse(fmt::format("its --version said \"{}\", which names no release; expected \"release X.Y, "
                              "VX.Y.Z\" as NVIDIA's tools say it",
                              said));
  const std::string name = path.filename().string();
  return Disassembler{.path = path.string(),
                      .tool = name.find("nvdisasm") != std::string::npos ? "nvdisasm" : "cuobjdump",
                      .version = m[2],
                      .release = m[1],
                      .note = ""};
}

std::optional<Disassembler> disassembler_beside(const fs::path& ptxas) {
  // nvdisasm first: cuobjdump -sass runs an nvdisasm itself, and fails without one beside it.
  for (const char* tool : {"nvdisasm", "cuobjdump"})
    if (auto d = probe_disassembler(ptxas.parent_path() / tool)) return d;
  return std::nullopt;
}

DisassemblerChoice choose_disassembler(const std::string& ptxas, const std::string& release, const std::string& env,
                                       const std::vector<std::string>& other_ptxas) {
  DisassemblerChoice c;
  if ((c.tool = disassembler_beside(ptxas))) return c;
  const std::string own = fmt::format("CUDA {} has none beside {}", release, ptxas);
  if (!env.empty()) {
    std::string why;
    if ((c.tool = probe_disassembler(env, &why))) {
      c.tool->note = fmt::format("$PTXCTS_DISASSEMBLER; {}", own);
      return c;
    }
    c.unavailable = fmt::format("no disassembler: {}, and $PTXCTS_DISASSEMBLER={} is refused: {}", own, env, why);
    // Said where the user sees it, once a process for each: the reports alone would leave it unnoticed.
    static std::mutex mutex;
    static std::set<std::string> said;
    std::lock_guard<std::mutex> hold(mutex);
    if (said.insert(env).second) fmt::print(stderr, "$PTXCTS_DISASSEMBLER={} is refused: {}\n", env, why);
    return c;
  }
  std::vector<Disassembler> others;
  for (auto const& p : other_ptxas)
    if (auto d = disassembler_beside(p)) others.push_back(*d);
  std::stable_sort(others.begin(), others.end(), [](const Disassembler& a, const Disassembler& b) {
    return disassembler_version_key(a.version) > disassembler_version_key(b.version);
  });
  if (!others.empty()) {
    c.tool = others.front();
    c.tool->note = fmt::format("of CUDA {}; {}", c.tool->release, own);
    return c;
  }
  c.unavailable = fmt::format(
      "no disassembler: {} and none of the other toolkits found has one (ptxcts toolkits fetch RELEASE "
      "--tool nvdisasm fetches one; PyPI carries it from CUDA 13.2 on)",
      own);
  return c;
}

std::optional<std::pair<std::uint64_t, std::string>> sass_instruction(const std::string& line) {
  // "/*0260*/  [{] [@P0|@!UP1 ...] OPCODE operands ;" (cuobjdump adds its encoding after it).
  static const std::regex instruction(
      R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s+(?:\{\s*)?(?:@!?[A-Z]*P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*))");
  std::smatch m;
  if (!std::regex_search(line, m, instruction)) return std::nullopt;
  return std::pair{std::stoull(m[1].str(), nullptr, 16), m[2].str()};
}

SassListing parse_sass_listing(const std::string& text) {
  // cuobjdump: "Function : NAME"; nvdisasm: ".section .text.NAME,...". An instruction line:
  // "/*0260*/  [@P0|@!UP1 ...] OPCODE operands ;" (cuobjdump adds its encoding after it).
  static const std::regex cuobjdump_function(R"(^\s*Function\s*:\s*(\S+))");
  static const std::regex nvdisasm_function(R"(^\s*\.section\s+\.text\.([^,\s]+))");
  SassListing out;
  std::vector<std::string>* current = nullptr;
  std::size_t at = 0, line_no = 0;
  std::smatch m;
  while (at < text.size()) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (std::regex_search(line, m, cuobjdump_function) || std::regex_search(line, m, nvdisasm_function)) {
      current = &out[m[1].str()];
      continue;
    }
    auto found = sass_instruction(line);
    if (!found) continue;
    if (!current)
      throw std::runtime_error(
          fmt::format("line {}: an instruction before any function: {}", line_no, line.substr(0, 200)));
    current->push_back(std::move(found->second));
  }
  return out;
}

namespace {

DisassemblyResult run_disassembler(const Disassembler& d, std::vector<std::string> argv, double timeout_seconds) {
  DisassemblyResult r;
  ProcessResult p = run_process(argv, timeout_seconds);
  if (p.timed_out) r.error = fmt::format("{} ran past {} s and was killed", d.tool, timeout_seconds);
  else if (p.signal) r.error = fmt::format("{} killed by signal {}", d.tool, p.signal);
  else if (p.exit_code != 0) r.error = fmt::format("{} exit {}: {}", d.tool, p.exit_code, last_line(p.output));
  if (!r.error.empty()) return r;
  try {
    r.functions = parse_sass_listing(p.output);
  } catch (const std::exception& e) { r.error = fmt::format("{} listing: {}", d.tool, e.what()); }
  if (r.error.empty() && r.functions.empty())
    r.error = fmt::format("{} listed no function: {}", d.tool, last_line(p.output));
  return r;
}

}  // namespace

DisassemblyResult disassemble_cubin(const Disassembler& d, const fs::path& cubin, double timeout_seconds) {
  if (d.tool == "nvdisasm") return run_disassembler(d, {d.path, "-c", cubin.string()}, timeout_seconds);
  return run_disassembler(d, {d.path, "-sass", cubin.string()}, timeout_seconds);
}

DisassemblyResult disassemble_function(const Disassembler& d, const fs::path& cubin, const std::string& function,
                                       double timeout_seconds) {
  if (d.tool == "nvdisasm") {  // its -fun takes a function's index, not its name
    DisassemblyResult r;
    r.error = "nvdisasm selects a function by index, not by name: use cuobjdump for one function";
    return r;
  }
  return run_disassembler(d, {d.path, "-sass", "-fun", function, cubin.string()}, timeout_seconds);
}

std::string last_line(const std::string& s) {
  std::size_t end = s.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  std::size_t start = s.rfind('\n', end);
  return s.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1))
      .substr(0, 300);
}

std::string sass_mnemonic(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

}  // namespace ptxcts
