#include "assemble/toolchain.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string_view>

#include "util/checked_file.hpp"
#include "util/environment.hpp"
#include "util/scratch_file.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {

std::string parse_ptxas_version(const std::string& out) {
  std::smatch m;
  static const std::regex re(R"(release \d+\.\d+, V(\d+\.\d+\.\d+))");
  if (!std::regex_search(out, m, re))
    throw std::runtime_error("cannot read the ptxas version from: " + out.substr(0, 200));
  return m[1];
}

std::vector<std::string> parse_ptxas_targets(const std::string& help) {
  // The --gpu-name option lists "Allowed values for this option: 'compute_75',...,'sm_90a'."
  auto at = help.find("--gpu-name");
  if (at == std::string::npos) throw std::runtime_error("ptxas --help does not describe --gpu-name");
  auto allowed = help.find("Allowed values for this option:", at);
  auto end = help.find("Default value", allowed);
  if (allowed == std::string::npos || end == std::string::npos)
    throw std::runtime_error("ptxas --help lists no targets for --gpu-name");
  std::string list = help.substr(allowed, end - allowed);
  std::vector<std::string> out;
  static const std::regex re(R"('(sm_\d+[af]?)')");
  for (std::sregex_iterator it(list.begin(), list.end(), re), e; it != e; ++it) out.push_back((*it)[1]);
  if (out.empty()) throw std::runtime_error("ptxas --help lists no sm_* targets");
  return out;
}

std::optional<PtxVersion> parse_ptxas_version_list(const std::string& out) {
  std::optional<PtxVersion> newest;
  static const std::regex re(R"((^|\s)(\d\.\d)(?=\s|$))");
  for (std::sregex_iterator it(out.begin(), out.end(), re), e; it != e; ++it)
    if (auto v = PtxVersion::parse((*it)[2].str()); v && (!newest || *newest < *v)) newest = v;
  return newest;
}

std::optional<PtxVersion> parse_ptxas_current_version(const std::string& message) {
  std::smatch m;
  static const std::regex re(R"(current version is '(\d\.\d)')");
  if (!std::regex_search(message, m, re)) return std::nullopt;
  return PtxVersion::parse(m[1].str());
}

namespace {

// What went wrong with a question put to ptxas, never an empty string: a hang, a signal, an exit
// without a word, or what it said.
std::string query_failure(const ProcessResult& r, double limit) {
  if (r.timed_out) return fmt::format("it hung, and was killed after {} s", limit);
  if (r.line_too_long) return fmt::format("it printed a line longer than {} bytes, and was killed", kMaxChildLineBytes);
  if (r.signal) return fmt::format("it was killed by signal {} ({})", r.signal, strsignal(r.signal));
  std::string said = r.output;
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  if (said.empty()) return fmt::format("it exited with {} without a word", r.exit_code);
  return said.substr(0, 300);
}

// The newest PTX ISA version the binary speaks: its own list where it has one (ptxas 13 and
// later), else what it says when refused a module of a version no ptxas knows.
void read_newest_ptx(Toolchain& tc, const std::string& help, double query_seconds) {
  if (help.find("--list-version") != std::string::npos) {
    ProcessResult r = run_process({tc.ptxas, "--list-version"}, query_seconds);
    if (auto v = r.exit_code == 0 ? parse_ptxas_version_list(r.output) : std::nullopt) {
      tc.ptx_isa = *v, tc.ptx_isa_read_by = "ptxas --list-version";
      return;
    }
  }
  namespace fs = std::filesystem;
  const fs::path ptx = scratch_file("version-probe", ".ptx");
  write_file_checked(ptx, ".version 99.9\n.target " + tc.real_targets.front() + "\n.address_size 64\n");
  ProcessResult r =
      run_process({tc.ptxas, "-arch=" + tc.real_targets.front(), "-o", "/dev/null", ptx.string()}, query_seconds);
  std::error_code ec;
  fs::remove(ptx, ec);
  auto v = parse_ptxas_current_version(r.output);
  if (!v)
    throw std::runtime_error(
        fmt::format("'{}' names no PTX ISA version of its own: it has no --list-version, and "
                    "refusing a .version 99.9 module it said: {}",
                    tc.ptxas, r.output.empty() ? query_failure(r, query_seconds) : r.output.substr(0, 200)));
  tc.ptx_isa = *v, tc.ptx_isa_read_by = "ptxas on a .version 99.9 module";
}

}  // namespace

Toolchain Toolchain::discover(const std::string& explicit_ptxas, const std::string& fallback, double query_seconds) {
  Toolchain tc;
  if (!explicit_ptxas.empty()) tc.ptxas = explicit_ptxas;
  else if (const char* env = std::getenv("PTXCTS_PTXAS"); env && *env) tc.ptxas = env;
  else if (!fallback.empty()) tc.ptxas = fallback;
  // The one a command line finds, else the CUDA toolkit's usual place.
  else tc.ptxas = find_on_path("ptxas", getenv_or("PATH") + ":/usr/local/cuda/bin");
  if (tc.ptxas.empty())
    throw std::runtime_error(
        "no ptxas: none on PATH or in /usr/local/cuda/bin (name one with --ptxas or $PTXCTS_PTXAS; a release "
        "package needs none to run its own catalog)");
  ProcessResult v = run_process({tc.ptxas, "--version"}, query_seconds);
  if (v.exit_code != 0)
    throw std::runtime_error(fmt::format("cannot run ptxas ('{}'): {}", tc.ptxas, query_failure(v, query_seconds)));
  tc.version = parse_ptxas_version(v.output);
  tc.release = tc.version.substr(0, tc.version.rfind('.'));
  ProcessResult h = run_process({tc.ptxas, "--help"}, query_seconds);
  if (h.exit_code != 0)
    throw std::runtime_error(fmt::format("'{} --help' failed: {}", tc.ptxas, query_failure(h, query_seconds)));
  tc.real_targets = parse_ptxas_targets(h.output);
  read_newest_ptx(tc, h.output, query_seconds);
  return tc;
}

std::optional<ProcessResult> Toolchain::run(const std::vector<std::string>& args) const {
  if (hangs->load() >= kHangsBeforeGivingUp) return std::nullopt;
  if (ptxas.empty()) {  // a toolkit known only from a catalog's manifest: what is not cached has no verdict
    ProcessResult none;
    none.exit_code = 127;
    none.output = fmt::format(
        "no ptxas at hand: ptxas {} is known here only from the catalog's manifest, and this assembly is not in "
        "its cache (name a ptxas {} with --ptxas to judge it)",
        version, version);
    return none;
  }
  std::vector<std::string> argv{ptxas};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = run_process(argv, ProcessOptions{.timeout_seconds = timeout_seconds, .watch = abandon.get()});
  if (r.stopped) return std::nullopt;  // abandoned while it ran: others hung as often as allowed
  if (r.timed_out) {
    int n = hangs->load();  // counted up to the limit only: a hang past it is one more abandoned run
    while (n < kHangsBeforeGivingUp && !hangs->compare_exchange_weak(n, n + 1)) {}
    if (n++ >= kHangsBeforeGivingUp) return std::nullopt;
    fmt::print(stderr, "ptxas hung: killed after {} s ({} of {} hangs allowed{})\n", timeout_seconds, n,
               kHangsBeforeGivingUp, n >= kHangsBeforeGivingUp ? "; the remaining assemblies are abandoned" : "");
    if (n >= kHangsBeforeGivingUp) abandon->stop();
  }
  return r;
}

std::string Toolchain::abandoned() const {
  return fmt::format("not run: ptxas hung {} times in this process (each killed after {} s), so the rest was abandoned",
                     hangs->load(), timeout_seconds);
}

namespace {

// ptxas saying that it failed, not that the PTX is wrong (case-insensitive): a phrase, or (`then`)
// two parts in this order on one line ("Assertion `p' failed"). The one place these live.
struct FailureWords {
  std::string_view phrase, then = {};
};
constexpr FailureWords kPtxasFailurePatterns[] = {
    {"out of memory"},          {"bad_alloc"},      {"cannot allocate"},
    {"memory allocation fail"}, {"internal error"}, {"internal compiler error"},
    {"segmentation fault"},     {"core dumped"},    {"assertion ", "failed"},
    {"terminate called"},       {"bus error"},      {"stack overflow"},
};

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

// Lowered once and searched for each phrase: a case-insensitive std::regex took 25 ms over a
// rejected probe module's 86 KB of errors (0.4 ms this way), a run of ptxas's own cost again.
bool says_ptxas_failed(const std::string& message) {
  std::string low(message);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto const& w : kPtxasFailurePatterns)
    for (std::size_t at = low.find(w.phrase); at != std::string::npos; at = low.find(w.phrase, at + 1)) {
      if (w.then.empty()) return true;
      const std::size_t then = low.find(w.then, at + w.phrase.size());
      if (then != std::string::npos && then < low.find_first_of("\r\n", at)) return true;
    }
  return false;
}

std::string AssemblyOutcome::why() const { return message.empty() ? obtained : obtained + ": " + first_line(message); }

AssemblyOutcome assemble(const Toolchain& tc, const std::filesystem::path& ptx_file, const std::string& target,
                         const std::filesystem::path& cubin_file) {
  std::error_code ec;
  std::filesystem::remove(cubin_file, ec);  // whatever is there afterwards, this ptxas wrote
  AssemblyOutcome out;
  const std::optional<ProcessResult> ran = tc.run({"-arch=" + target, "-o", cubin_file.string(), ptx_file.string()});
  if (!ran) {
    out.obtained = tc.abandoned();
    return out;  // an error: nothing said about the PTX
  }
  const ProcessResult& r = *ran;
  out.message = r.output;
  // Drop the temporary file's name from messages, so that they read the same on every machine.
  for (std::size_t p; (p = out.message.find(ptx_file.string())) != std::string::npos;)
    out.message.replace(p, ptx_file.string().size(), "kernel.ptx");
  while (!out.message.empty() && (out.message.back() == '\n' || out.message.back() == ' ')) out.message.pop_back();
  const auto size = std::filesystem::file_size(cubin_file, ec);
  const bool wrote = !ec && size > 0;
  // Only what ptxas was seen to decide is a verdict; every other ending is an error.
  using S = AssemblyState;
  auto say = [&](S state, std::string how) { out.state = state, out.obtained = std::move(how); };
  if (r.timed_out) say(S::Error, fmt::format("ptxas ran past the {} s limit and was killed", tc.timeout_seconds));
  else if (r.signal) say(S::Error, fmt::format("ptxas killed by signal {} ({})", r.signal, strsignal(r.signal)));
  else if (r.exit_code == 126 || r.exit_code == 127)
    say(S::Error, fmt::format("ptxas could not be run (exit {})", r.exit_code));
  else if (r.exit_code == 0 && wrote) say(S::Accepted, "ptxas exit 0");
  else if (r.exit_code == 0) say(S::Error, "ptxas exit 0 without writing the cubin");
  else if (out.message.empty()) say(S::Error, fmt::format("ptxas exit {} without a message", r.exit_code));
  else if (says_ptxas_failed(out.message))
    say(S::Error, fmt::format("ptxas exit {} with a message that says ptxas failed", r.exit_code));
  else say(S::Rejected, fmt::format("ptxas exit {} with a message", r.exit_code));
  return out;
}

}  // namespace ptxcts
