#include "assemble/wheel_fetch.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "assemble/toolchain.hpp"
#include "assemble/toolkit_identity.hpp"
#include "util/checked_file.hpp"
#include "util/private_path.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// The line of `output` the regular expression first matches (trimmed), or "".
std::string line_matching(const std::string& output, const std::regex& re) {
  std::size_t at = 0;
  while (at < output.size()) {
    std::size_t end = std::min(output.find('\n', at), output.size());
    std::string line = output.substr(at, end - at);
    if (std::regex_search(line, re)) {
      line.erase(0, line.find_first_not_of(" \t"));
      return line.substr(0, 300);
    }
    at = end + 1;
  }
  return "";
}

std::string last_output_line(const std::string& output) {
  std::string s = output;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s.substr(s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1).substr(0, 300);
}

// A folder of its own in the cache for one fetch, removed when the fetch ends, however it ends.
struct Scratch {
  fs::path dir;
  explicit Scratch(const fs::path& cache, const std::string& release) {
    static std::atomic<int> made{0};
    dir = cache / fmt::format(".fetch-{}-{}-{}", release, ::getpid(), made++);
    fs::remove_all(dir);
    fs::create_directories(dir / "wheel");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

FetchTools default_fetch_tools() {
  FetchTools t;
  if (const char* pip = std::getenv("PTXCTS_PIP"); pip && *pip) t.pip = {pip};
  return t;
}

std::string pip_requirement(const std::string& version, const std::string& tool) {
  if (std::find(kFetchableTools.begin(), kFetchableTools.end(), tool) == kFetchableTools.end())
    throw std::invalid_argument(
        fmt::format("'{}' is not a tool that can be fetched; expected ptxas, cuobjdump or nvdisasm", tool));
  std::smatch m;
  static const std::regex re(R"(^(\d{1,3})\.(\d{1,3})(\.\d{1,6})?$)");
  if (!std::regex_match(version, m, re))
    throw std::invalid_argument(
        fmt::format("'{}' is not a CUDA version; expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. 12.4", version));
  const int major = std::stoi(m[1].str());
  if (major < 11)
    throw std::invalid_argument(
        fmt::format("CUDA {}: PyPI carries ptxas wheels from CUDA 11 on; expected a version of 11 or later", version));
  const std::string stem = tool == "ptxas" ? "nvidia-cuda-nvcc" : "nvidia-cuda-" + tool;
  const std::string package = major >= 13 ? stem : fmt::format("{}-cu{}", stem, major);
  return package + "==" + version + (m[3].matched ? "" : ".*");
}

namespace {

// A step of the fetch that failed: the outcome it gives and why (the cache stays as it was).
struct FetchFailed {
  FetchOutcome outcome;
  std::string why;
};

// What pip's failure says: the registry out of reach, no such version, or something else.
[[noreturn]] void pip_failed(const ProcessResult& pip, const std::string& requirement) {
  static const std::regex network(
      "NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|"
      "Name or service not known|Network is unreachable|No route to host|Connection refused|ConnectTimeout|"
      "ReadTimeout|ProxyError|SSLError|Could not fetch URL|connection broken",
      std::regex::icase);
  static const std::regex missing("No matching distribution found|Could not find a version that satisfies",
                                  std::regex::icase);
  if (auto line = line_matching(pip.output, network); !line.empty())
    throw FetchFailed{.outcome = FetchOutcome::RegistryUnreachable,
                      .why = fmt::format("cannot reach the package registry for {} (pip: {})", requirement, line)};
  if (auto line = line_matching(pip.output, missing); !line.empty())
    throw FetchFailed{.outcome = FetchOutcome::NoSuchVersion,
                      .why = fmt::format("the package registry has no {} (pip: {})", requirement, line)};
  throw FetchFailed{
      .outcome = FetchOutcome::Failed,
      .why = fmt::format("pip download {} failed (exit {}): {}", requirement, pip.exit_code, last_output_line(pip.output))};
}

// The one wheel pip downloads for the requirement, into `into`.
fs::path download_wheel(const FetchTools& tools, const fs::path& into, const std::string& requirement) {
  std::vector<std::string> argv = tools.pip;
  for (const char* a : {"download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--no-input",
                        "--progress-bar", "off", "-d"})
    argv.push_back(a);
  argv.push_back(into.string());
  argv.push_back(requirement);
  ProcessResult pip = run_process(argv, tools.timeout_seconds);
  if (pip.timed_out)
    throw FetchFailed{
        .outcome = FetchOutcome::RegistryUnreachable,
        .why = fmt::format("pip download {} ran past {} s and was stopped", requirement, tools.timeout_seconds)};
  if (pip.exit_code != 0) pip_failed(pip, requirement);
  std::vector<fs::path> wheels;
  for (auto const& e : fs::directory_iterator(into))
    if (e.path().extension() == ".whl") wheels.push_back(e.path());
  if (wheels.size() != 1)
    throw FetchFailed{.outcome = FetchOutcome::BadWheel,
                      .why = fmt::format("pip download {} left {} wheels, expected one", requirement, wheels.size())};
  return wheels.front();
}

// A wheel is a zip archive: checked whole (every member's CRC), then only the tool unpacked, into
// staged/bin. The tool's member name in the wheel.
std::string unpack_tool(const FetchTools& tools, const fs::path& wheel, const std::string& tool,
                        const fs::path& staged) {
  const std::string name = wheel.filename().string();
  auto bad = [](std::string why) { return FetchFailed{.outcome = FetchOutcome::BadWheel, .why = std::move(why)}; };
  ProcessResult test = run_process({tools.unzip, "-tqq", wheel.string()}, 300);
  if (test.exit_code != 0)
    throw bad(
        fmt::format("the wheel {} is damaged (unzip -t, exit {}: {})", name, test.exit_code, last_output_line(test.output)));
  ProcessResult list = run_process({tools.unzip, "-Z1", wheel.string()}, 60);
  std::string member;
  const std::regex tool_member("^[^\\n]*/bin/" + tool + "$");
  if (list.exit_code == 0) member = line_matching(list.output, tool_member);
  if (member.empty()) throw bad(fmt::format("the wheel {} holds no */bin/{}", name, tool));
  fs::create_directories(staged / "bin");  // unzip -d makes one level, not two
  ProcessResult unzip =
      run_process({tools.unzip, "-q", "-j", "-o", wheel.string(), member, "-d", (staged / "bin").string()}, 300);
  const fs::path binary = staged / "bin" / tool;
  std::error_code ec;
  if (unzip.exit_code != 0 || !fs::is_regular_file(binary, ec))
    throw bad(fmt::format("cannot unpack {} from the wheel {} (unzip, exit {}: {})", member, name, unzip.exit_code,
                          last_output_line(unzip.output)));
  ::chmod(binary.c_str(), 0755);
  return member;
}

// The binary itself says what it is: it must run and be the release asked for. The version it names.
std::string checked_version(const fs::path& binary, const std::string& tool, const std::string& wheel_name,
                            const std::string& version) {
  ProcessResult v = run_process({binary.string(), "--version"}, 60);
  std::string said;
  try {
    said = parse_ptxas_version(v.output);
  } catch (const std::exception&) {
    throw FetchFailed{.outcome = FetchOutcome::BadWheel,
                      .why = fmt::format("the {} in the wheel {} does not run or name its version "
                                         "(exit {}: {})",
                                         tool, wheel_name, v.exit_code, last_output_line(v.output))};
  }
  if (said.rfind(version, 0) != 0 || (said.size() > version.size() && said[version.size()] != '.'))
    throw FetchFailed{
        .outcome = FetchOutcome::BadWheel,
        .why = fmt::format("the {} in the wheel {} is version {}, not {}", tool, wheel_name, said, version)};
  return said;
}

// Into place by renames only: a reader sees the old toolkit or the new one, never half of one. A
// disassembler joins the folder its release's ptxas is in (the file and its record, each renamed).
void move_into_place(const fs::path& staged, const std::string& record, const std::string& tool, const fs::path& dest,
                     const fs::path& binary, const Scratch& scratch) {
  std::error_code ec;
  if (tool != "ptxas" && fs::is_directory(dest / "bin", ec)) {
    fs::rename(staged / record, dest / record);
    fs::rename(staged / "bin" / tool, binary);
  } else {
    if (fs::exists(dest, ec)) fs::rename(dest, scratch.dir / "replaced");
    fs::rename(staged, dest);
  }
}

}  // namespace

FetchResult fetch_toolkit(const std::string& version, const fs::path& cache, const FetchTools& tools, bool refetch,
                          const std::string& tool) {
  const std::string requirement = pip_requirement(version, tool);  // throws for a bad version or tool
  FetchResult out;
  out.tool = tool;
  out.release = version.substr(0, version.find('.', version.find('.') + 1));
  const fs::path dest = cache / ("cuda-" + out.release);
  out.binary = (dest / "bin" / tool).string();
  std::error_code ec;
  if (!refetch && fs::is_regular_file(out.binary, ec)) {
    out.outcome = FetchOutcome::AlreadyThere;
    out.message = fmt::format("CUDA {}: already in the cache: {}", out.release, out.binary);
    return out;
  }
  make_private_folder(cache);  // mode 0700 where it is made; throws where another user could write there
  Scratch scratch(cache, out.release);
  try {
    const fs::path wheel = download_wheel(tools, scratch.dir / "wheel", requirement);
    const std::string name = wheel.filename().string();
    const fs::path staged = scratch.dir / "toolkit";
    const std::string member = unpack_tool(tools, wheel, tool, staged);
    const std::string said = checked_version(staged / "bin" / tool, tool, name, version);
    const std::string record = tool == "ptxas" ? "wheel.txt" : "wheel-" + tool + ".txt";
    write_file_checked(staged / record, "wheel: " + name + "\nrequirement: " + requirement + "\n" + tool + ": " + said +
                                            "\nmember: " + member + "\n");
    // Sealed as fetched: every later use checks that the cache still holds this file (toolkit_identity).
    if (tool == "ptxas") write_ptxas_seal(staged / "bin" / tool, seal_of(staged / "bin" / tool, "fetch"));
    move_into_place(staged, record, tool, dest, out.binary, scratch);
    out.outcome = FetchOutcome::Fetched;
    out.message = fmt::format("CUDA {}: {} {} from {} -> {}", out.release, tool, said, name, out.binary);
  } catch (const FetchFailed& f) {
    out.outcome = f.outcome;
    out.binary.clear();
    out.message = fmt::format("CUDA {}: {}; nothing fetched, the cache is as it was", version, f.why);
  }
  return out;
}

}  // namespace ptxcts
