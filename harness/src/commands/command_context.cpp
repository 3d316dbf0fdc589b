#include "commands/command_context.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <thread>

#include "assemble/toolkits.hpp"
#include "report/up_to_date.hpp"
#include "util/sealed_file.hpp"

namespace ptxcts {

namespace {
std::optional<ProgramFacts>& facts() {
  static std::optional<ProgramFacts> f;
  return f;
}
const auto kProcessStart = std::chrono::steady_clock::now();
}  // namespace

void init_program(const ProgramFacts& f) {
  facts() = f;
  // Output redirected to a file or a pipe goes out line by line, not 4 KiB at a time: a run killed
  // outright (SIGKILL, a CI job's timeout) leaves every line it printed. Before anything is printed.
  if (!::isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOLBF, 0);
}

const ProgramFacts& program() {
  if (!facts()) throw std::logic_error("init_program was not called");
  return *facts();
}

const ProgramHome& home() {
  static const ProgramHome h = find_program_home(this_program(), program().layout);
  return h;
}

int usage_error(const std::string& message) {
  fmt::print(stderr, "error: {}\n", message);
  return kExitTrouble;
}

Paths::Paths()
    : toolkit_cache(default_toolkit_cache().string()),
      jobs(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {}

Toolchain find_toolchain(const Paths& p) { return Toolchain::discover(p.ptxas, home().build_ptxas); }

std::string user_catalog(const std::string& release) {
  const std::filesystem::path cache = default_toolkit_cache();
  if (cache.empty())
    throw std::runtime_error(
        "no folder of your own for this toolkit's catalog: $HOME is unset and the password database names no home "
        "for this user (never a shared folder such as /tmp instead); expected --catalog DIR, or $HOME");
  return (cache.parent_path() / ("catalog-cuda" + release)).string();
}

CatalogOrigin this_suite(const Paths& p) {
  return {.suite_version = program().version,
          .suite_commit = program().commit,
          .specs = xxh3_hex(folder_identity(p.specs) + "\n" + folder_identity(p.kernels))};
}

AuditRun report_writer() {
  return {.host = host_name(), .date = utc_now(), .suite_version = program().version, .suite_commit = program().commit};
}

std::string utc_now() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

std::chrono::steady_clock::time_point process_start() { return kProcessStart; }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<int>(u.ru_maxrss / 1024);  // Linux: kilobytes
}

}  // namespace ptxcts
