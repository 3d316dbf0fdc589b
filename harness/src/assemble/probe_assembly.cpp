#include "assemble/probe_assembly.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <csignal>
#include <atomic>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "util/atomic_file.hpp"
#include "util/checked_file.hpp"
#include "util/file_text.hpp"
#include "util/owned_folder.hpp"
#include "util/sealed_file.hpp"
#include "util/worker_threads.hpp"
#include "util/subprocess.hpp"

namespace ptxcts {
namespace fs = std::filesystem;
namespace {

constexpr const char* kRecordMagic = "ptxcts-probes 1";

// A module: one or more files that one ptxas process takes, each the header then its entries
// ".visible .entry pK()\n{\n<body>}\n", K the entry's place in the module (names unique across the
// files). ptxas parses each file apart: a fatal error ends its own file's parse, not the others'.
// But it leaves the qualifiers of the instruction it stopped in behind, and the next file's first
// instruction gets them ("Multiple .aligned modifiers specified" on an ldmatrix that has one), so
// a file of its own (FilePerEntry) opens with an entry "rK() { ret; }" that takes them: what is
// said about it is no member's ("Illegal modifier '.sync' for instruction 'ret'"). The last file
// (no member's) holds an error, so that ptxas lowers none of them: where no file has an error it
// lowers them together, and a wmma of a second file cannot call the built-in code its lowering put
// in the first ("Unknown symbol '__cuda_sm7x_wmma_...'"). Such a run is a parse: the members no
// error was pinned on are judged again, in one file. Probes check that a member's verdict and
// messages are those it gets alone (test_probe_files_apart).
enum class Layout { OneFile, FilePerEntry };

struct Module {
  std::vector<std::string> files;
  std::vector<int> body_line;           // per entry: the line of its body's first line in its file
  std::vector<int> lines;               // per file: its last line
  std::vector<int> entries_from;        // per file: the line its members' entries start at (after the ret entry)
  std::vector<std::size_t> first_entry; // per file: its first entry (its entries follow in order)
  bool stopper = false;                 // the last file is no member's: an error, so nothing is lowered
};

constexpr int kHeaderLines = 3;  // .version, .target, .address_size

void open_file(Module& m, const std::string& header, std::size_t k, Layout layout, int& line) {
  if (!m.files.empty()) m.lines.push_back(line - 1);
  m.files.push_back(header);
  m.first_entry.push_back(k);
  line = kHeaderLines + 1;
  if (layout == Layout::FilePerEntry) {
    m.files.back().append(".visible .entry r").append(std::to_string(k)).append("()\n{\nret;\n}\n");
    line += 4;
  }
  m.entries_from.push_back(line);
}

Module compose(const std::vector<Probe>& probes, const std::vector<std::size_t>& members, Layout layout) {
  const Probe& first = probes[members.front()];
  const std::string header = fmt::format(".version {}\n.target {}\n.address_size 64\n", first.ptx.str(), first.target);
  Module m;
  m.body_line.reserve(members.size());
  int line = 0;
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (k == 0 || layout == Layout::FilePerEntry) open_file(m, header, k, layout, line);
    std::string& text = m.files.back();
    if (k == 0 && layout == Layout::OneFile) {
      // Appends into one reserved string: a warm audit composes every module (megabytes) to find its key.
      std::size_t size = text.size();
      for (auto j : members) size += probes[j].body.size() + probes[j].directives.size() + 32;
      text.reserve(size);
    }
    const Probe& p = probes[members[k]];
    text.append(".visible .entry p").append(std::to_string(k)).append("()");
    if (!p.directives.empty()) text.append(" ").append(p.directives);
    text.append("\n{\n");
    m.body_line.push_back(line + 2);
    text += p.body;
    if (!p.body.empty() && p.body.back() != '\n') text += '\n';
    text += "}\n";
    line += 3 + static_cast<int>(std::count(p.body.begin(), p.body.end(), '\n')) +
            (!p.body.empty() && p.body.back() != '\n');
  }
  if (layout == Layout::FilePerEntry) {
    open_file(m, header, members.size(), Layout::OneFile, line);
    m.files.back().append(".visible .entry z()\n{\nptxcts_stops_lowering;\n}\n");
    line += 4;
    m.stopper = true;
  }
  m.lines.push_back(line - 1);
  return m;
}

// How a module's first run is laid out: probes expected to end ptxas's parse (group 2) each in a file
// of its own, so that one ending its file's parse hides no other's verdict; the others in one file
// (most are judged in that one run: a file a member is a parse, and a second run for what it takes).
Layout first_layout(const std::vector<Probe>& probes, const std::vector<std::size_t>& members) {
  return members.size() > 1 && probes[members.front()].group == 2 ? Layout::FilePerEntry : Layout::OneFile;
}

// What one ptxas run said about each member.
struct Run {
  bool failed = false;  // ptxas gave no verdict: `why`
  std::string why;
  bool accepted = false;                 // exit 0
  std::vector<std::string> messages;     // per member, renumbered
  std::vector<bool> rejected;            // per member: an error or fatal line pinned on it
  bool stray = false;                    // a line that names no member (other than the closing abort line)
  bool fatal = false;                    // a fatal line pinned on a member: its file's parse ended there
  bool crashed = false;                  // ptxas died of its own fault (SIGSEGV, ...) on something in the module
  std::string output;                    // as ptxas wrote it (file names normalised)
};

// How ptxas ended: no verdict (`failed`, and why) where it could not run, ran past its limit, was
// killed, or exited saying it failed; a crash (its lines still pinned) where it died of its own fault.
void read_exit(Run& run, const std::optional<ProcessResult>& ran, const ProcessResult& r, const Toolchain& tc,
               bool cubin_missing) {
  if (!ran) run.failed = true, run.why = tc.abandoned();
  else if (r.timed_out) run.failed = true, run.why = fmt::format("ptxas ran past the {} s limit", tc.timeout_seconds);
  else if (r.signal) {
    run.failed = true, run.why = fmt::format("ptxas killed by signal {} ({})", r.signal, strsignal(r.signal));
    run.crashed = r.signal == SIGSEGV || r.signal == SIGABRT || r.signal == SIGBUS || r.signal == SIGFPE ||
                  r.signal == SIGILL;
    if (run.crashed) run.failed = false;  // its lines are still pinned below; judge() splits or says it
  } else if (r.exit_code == 126 || r.exit_code == 127)
    run.failed = true, run.why = fmt::format("ptxas could not be run (exit {}): {}", r.exit_code, r.output);
  else if (r.exit_code != 0 && run.output.empty())
    run.failed = true, run.why = fmt::format("ptxas exit {} without a message", r.exit_code);
  else if (r.exit_code != 0 && says_ptxas_failed(run.output))
    run.failed = true, run.why = fmt::format("ptxas exit {} with a message that says ptxas failed", r.exit_code);
  else if (r.exit_code == 0 && cubin_missing)
    run.failed = true, run.why = "ptxas exit 0 without writing the cubin";
  // A shell's way of saying a signal (128 + its number), from a ptxas run through a wrapper: a crash too.
  if (!run.failed && r.exit_code > 128 && r.exit_code < 160 && !run.output.empty() &&
      run.output.find("Ptx assembly aborted due to errors") == std::string::npos)
    run.crashed = true, run.why = fmt::format("ptxas exit {} (a signal) without finishing", r.exit_code);
}

// One line of ptxas's output on the member it is about: "ptxas probe.ptx, line 57; error   : ..."
// of file f goes to f's member whose entry holds line 57; a line about a file's header to each of
// that file's members; one about no member that can be told is stray (every member hears it).
void pin_line(Run& run, const Module& m, int file, const std::string& line) {
  static const std::string prefix = "ptxas probe.ptx, line ";
  int number = 0;
  std::size_t semi = std::string::npos;
  if (file >= 0 && line.rfind(prefix, 0) == 0) {
    semi = line.find(';', prefix.size());
    if (semi != std::string::npos) number = std::atoi(line.c_str() + prefix.size());
  }
  if (m.stopper && static_cast<std::size_t>(file) + 1 == m.files.size()) return;  // the stopper's error
  if (number <= 0 || number > m.lines[static_cast<std::size_t>(file)]) {
    // About no member that can be told (ptxas's own built-in code, no line number).
    run.stray = true;
    for (auto& msg : run.messages) msg += line + "\n";
    return;
  }
  const std::size_t from = m.first_entry[static_cast<std::size_t>(file)];
  const std::size_t to = static_cast<std::size_t>(file) + 1 < m.files.size() ? m.first_entry[static_cast<std::size_t>(file) + 1]
                                                                             : m.body_line.size();
  const bool error = line.find("; error", semi) == semi || line.find("; fatal", semi) == semi;
  if (number > kHeaderLines && number < m.entries_from[static_cast<std::size_t>(file)]) return;  // the ret entry's
  if (number <= kHeaderLines) {
    // About the file's header (.version, .target): each of its members hears it, alone too.
    for (std::size_t k = from; k < to; ++k) {
      run.messages[k] += line + "\n";
      if (error) run.rejected[k] = true;
    }
    return;
  }
  // The entry whose body holds the line (its entry and brace lines are the two before its body).
  auto next = std::upper_bound(m.body_line.begin() + static_cast<std::ptrdiff_t>(from),
                               m.body_line.begin() + static_cast<std::ptrdiff_t>(to), number + 2);
  const std::size_t k = static_cast<std::size_t>(next - m.body_line.begin() - 1);
  const std::string rest = line.substr(semi);  // "; error   : ..."
  run.messages[k] += fmt::format("{}{}{}\n", prefix, number - m.body_line[k] + 1, rest);
  if (error) run.rejected[k] = true;
  if (rest.rfind("; fatal", 0) == 0) run.fatal = true;
}

// The module's file names in ptxas's output made "probe.ptx", each line with the file it names
// (-1: none of them). Files are `stem`-N.ptx.
std::vector<std::pair<int, std::string>> output_lines(const std::string& output, const std::string& stem,
                                                      std::size_t files) {
  std::vector<std::pair<int, std::string>> lines;
  for (std::size_t at = 0; at < output.size();) {
    std::size_t end = output.find('\n', at);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(at, end - at);
    at = end + 1;
    int file = -1;
    for (std::size_t p; (p = line.find(stem)) != std::string::npos;) {
      char* after = nullptr;
      const unsigned long n = std::strtoul(line.c_str() + p + stem.size(), &after, 10);
      if (std::strncmp(after, ".ptx", 4) != 0 || n >= files) break;
      if (file < 0) file = static_cast<int>(n);
      line.replace(p, static_cast<std::size_t>(after - line.c_str()) + 4 - p, "probe.ptx");
    }
    lines.emplace_back(file, std::move(line));
  }
  return lines;
}

// A worker's ptxas input files, `stem`N.ptx, written over in place run after run: a new file per
// entry per run (made, renamed, removed) costs ext4 an inode search each (many thousands a second
// here: most of the audit's time went to the kernel), a file written over costs none.
struct WorkerFiles {
  std::string stem;
  std::size_t made = 0;
  explicit WorkerFiles(const fs::path& dir) {
    static std::atomic<unsigned> counter{0};
    stem = (dir / fmt::format("probe-{}-{}-", ::getpid(), counter++)).string();
  }
  WorkerFiles(const WorkerFiles&) = delete;
  WorkerFiles& operator=(const WorkerFiles&) = delete;
  ~WorkerFiles() {
    std::error_code ec;
    for (std::size_t f = 0; f < made; ++f) fs::remove(fmt::format("{}{}.ptx", stem, f), ec);
    fs::remove(stem + "cubin", ec);
  }
  std::string write(std::size_t f, const std::string& text) {
    const std::string path = fmt::format("{}{}.ptx", stem, f);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(write_error(path, errno));
    try {
      write_all(fd, text, path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw std::runtime_error(write_error(path, errno));
    made = std::max(made, f + 1);
    return path;
  }
};

Run run_ptxas(const Toolchain& tc, const Module& m, const std::string& arch, ProbeMode mode, WorkerFiles& files) {
  const std::string out = files.stem + "cubin";
  std::vector<std::string> args = {"-arch=" + arch};
  for (std::size_t f = 0; f < m.files.size(); ++f) args.push_back(files.write(f, m.files[f]));
  args.insert(args.end(), {"-o", mode == ProbeMode::Full ? out : "/dev/null"});
  std::error_code ec;
  if (mode == ProbeMode::Full) fs::remove(out, ec);
  const std::optional<ProcessResult> ran = tc.run(args);
  ProcessResult r = ran.value_or(ProcessResult{});
  const bool wrote = mode == ProbeMode::Full && fs::exists(out, ec);
  const std::string& stem = files.stem;
  Run run;
  run.messages.assign(m.body_line.size(), "");
  run.rejected.assign(m.body_line.size(), false);
  std::set<std::string> said;  // a line about no file said by each of many files is heard once
  for (auto& [file, line] : output_lines(r.output, stem, m.files.size())) {
    run.output += line + "\n";
    if (line.empty() || line.rfind("ptxas fatal   : Ptx assembly aborted due to errors", 0) == 0) continue;
    if (file < 0 && m.files.size() > 1 && !said.insert(line).second) continue;
    pin_line(run, m, file, line);
  }
  if (!r.output.empty() && r.output.back() != '\n') run.output.pop_back();
  read_exit(run, ran, r, tc, mode == ProbeMode::Full && !wrote);
  if (run.failed) return run;
  run.accepted = r.exit_code == 0 && !run.crashed;
  return run;
}

// Judges the members (indices into `probes`) of one module, running ptxas as often as it takes.
struct Judging {
  const Toolchain& tc;
  const std::vector<Probe>& probes;
  ProbeMode mode;
  WorkerFiles& files;
  std::vector<ProbeVerdict>& out;
  std::atomic<std::size_t>& runs;
  // Bodies found alone to give a line about no member with nothing pinned (on any target): in a
  // module that gives such a line they are judged alone first, and the rest together, before halves.
  std::set<std::string>& suspects;
  std::mutex& suspects_lock;
  // Each body's last verdict (by its hash): one an error was pinned on the last time it was judged
  // (on another target, most often: the grammar asks each form on every target; or at another PTX
  // ISA version) is judged apart in a module expected to be accepted, so that the rest is most often
  // accepted in one run instead of run again after each rejection.
  std::unordered_map<std::uint64_t, bool>& last_rejected;

  bool suspected(std::size_t k) {
    std::lock_guard<std::mutex> hold(suspects_lock);
    return suspects.count(probes[k].directives.empty() ? probes[k].body : probes[k].directives + probes[k].body) != 0;
  }
  std::uint64_t body_hash(std::size_t k) const {  // the entry's directives with its body: they are judged together
    const Probe& p = probes[k];
    if (p.directives.empty()) return XXH3_64bits(p.body.data(), p.body.size());
    const std::string entry = p.directives + p.body;
    return XXH3_64bits(entry.data(), entry.size());
  }
  bool rejected_last(std::size_t k) {
    const std::uint64_t h = body_hash(k);
    std::lock_guard<std::mutex> hold(suspects_lock);
    auto it = last_rejected.find(h);
    return it != last_rejected.end() && it->second;
  }
  void note_verdicts(const std::vector<std::size_t>& members, const std::vector<bool>& rejected) {
    std::vector<std::uint64_t> hashes;
    for (auto k : members) hashes.push_back(body_hash(k));
    std::lock_guard<std::mutex> hold(suspects_lock);
    for (std::size_t j = 0; j < members.size(); ++j) last_rejected[hashes[j]] = rejected[j];
  }

  // Whether the module was accepted in one run. `holds_the_line`: the other half of its parent ran
  // clean, so what gave the parent its line about no member is in this half: it is split at once,
  // not run whole first (each verdict still comes from a run of the member's own module).
  // `rest`: the members are what a rejected run of theirs left unjudged.
  bool judge(const std::vector<std::size_t>& members, const std::string& arch, bool holds_the_line = false,
             std::optional<Layout> layout = std::nullopt, bool rest = false) {
    if (members.empty()) return true;
    if (holds_the_line && members.size() > 1) {
      split_in_halves(members, arch);
      return false;
    }
    const Layout laid = members.size() == 1 ? Layout::OneFile : layout.value_or(first_layout(probes, members));
    if (judged_apart(members, arch, laid)) return false;
    const Module m = compose(probes, members, laid);
    const Run r = run_ptxas(tc, m, arch, mode, files);
    ++runs;
    // A ptxas that lists compute_XX but refuses it as -arch (ptxas 12.4 with compute_90a) has said
    // nothing about the PTX: the module is judged by a full assembly for the real target instead.
    if (arch.rfind("compute_", 0) == 0 &&
        r.output.find("Unsupported gpu architecture '" + arch + "'") != std::string::npos) {
      return judge(members, "sm_" + arch.substr(8), false, laid);
    }
    if (r.crashed) {
      crashed(members, arch, r);
      return false;
    }
    if (r.failed) {
      for (auto k : members) out[k] = {.accepted = false, .message = "", .error = r.why};
      return false;
    }
    if (r.accepted) {
      note_verdicts(members, r.rejected);
      for (std::size_t j = 0; j < members.size(); ++j) out[members[j]] = {.accepted = true, .message = r.messages[j]};
      return true;
    }
    judge_rejection(members, arch, r, laid, rest);
    return false;
  }

  // ptxas crashing on a module: halves, down to the member it crashes on (the others keep their
  // verdicts). Alone: rejected before it crashed, a verdict (ptxas said why) with the crash after it;
  // else none.
  void crashed(const std::vector<std::size_t>& members, const std::string& arch, const Run& r) {
    if (members.size() > 1) return split_in_halves(members, arch);
    if (r.rejected[0])
      out[members[0]] = {.accepted = false, .message = r.messages[0] + kPtxasCrashed + ": " + r.why + "\n"};
    else out[members[0]] = {.accepted = false, .message = "", .error = r.why};
  }

  // A module ptxas rejected: the members an error was pinned on have their verdicts, the others are
  // judged again; a line about no member sends the module to be split until it is one member's.
  void judge_rejection(const std::vector<std::size_t>& members, const std::string& arch, const Run& r, Layout laid,
                       bool rest) {
    // Those no error was pinned on, judged again, in one file; a file each where a fatal line ended
    // the parse of the one file they shared (each may end it again: else a run for each).
    const Layout again_layout = laid == Layout::OneFile && r.fatal ? Layout::FilePerEntry : Layout::OneFile;
    // A run of a file a member is a parse (nothing lowered): what it takes goes again in one file.
    if (laid == Layout::FilePerEntry && !r.stray) return judge_pinned(members, arch, r, Layout::OneFile);
    // A line about no member (the header, ptxas's own built-in code) may be any member's: halves,
    // until it is one member's alone, or goes away.
    const auto pinned = static_cast<std::size_t>(std::count(r.rejected.begin(), r.rejected.end(), true));
    if (r.stray && pinned > 0 && pinned < members.size()) {
      // The members an error was pinned on apart from the others: the stray line goes with one
      // side, and the other (most often the accepted ones) is judged in one run, not in halves.
      std::vector<std::size_t> rejected, others;
      for (std::size_t j = 0; j < members.size(); ++j) (r.rejected[j] ? rejected : others).push_back(members[j]);
      judge(others, arch, false, again_layout);
      judge(rejected, arch, false, Layout::OneFile);
      return;
    }
    if (pinned == 0 || r.stray) {
      if (members.size() == 1) {
        out[members[0]] = {.accepted = false, .message = r.output};
        if (pinned == 0) {
          std::lock_guard<std::mutex> hold(suspects_lock);
          suspects.insert(probes[members[0]].directives + probes[members[0]].body);
        }
        return;
      }
      if (pinned == 0) {
        std::vector<std::size_t> suspect, rest;
        for (auto k : members) (suspected(k) ? suspect : rest).push_back(k);
        if (!suspect.empty() && !rest.empty()) {
          for (auto k : suspect) judge({k}, arch);
          judge(rest, arch);
          return;
        }
      }
      // Every member rejected (each likely with a line of its own): small ones alone at once. None
      // pinned (a fatal error in ptxas's built-in code, often one member's of many): halves, to one.
      if (pinned > 0 && members.size() <= kSplitAlone) {
        for (auto k : members) judge({k}, arch);
        return;
      }
      split_in_halves(members, arch);
      return;
    }
    // A rest rejected again in one file is most often ptxas expanding what the parse took (a wmma,
    // an mma it emulates, into its built-in code), which in a file stops at the file's first failure
    // and goes on in the next file: its rest goes a file each, so that one run finds every such
    // failure, not one run each (chains of 30 runs in ptxas 13.0's cold audit).
    judge_pinned(members, arch, r, rest && laid == Layout::OneFile ? Layout::FilePerEntry : again_layout);
  }

  // The members an error was pinned on are rejected; the others are judged again, laid out as
  // `again` says: a fatal line ends the parse, and where the parse found errors ptxas does not lower
  // what it parsed (the built-in code a wmma becomes, where errors of their own come from).
  void judge_pinned(const std::vector<std::size_t>& members, const std::string& arch, const Run& r, Layout again_layout) {
    note_verdicts(members, r.rejected);
    std::vector<std::size_t> again;
    for (std::size_t j = 0; j < members.size(); ++j) {
      if (r.rejected[j]) out[members[j]] = {.accepted = false, .message = r.messages[j]};
      else again.push_back(members[j]);
    }
    judge(again, arch, false, again_layout, true);
  }

  // Bodies found alone to give a line about no member, each alone, the rest together; in a module
  // expected to be accepted (group 0), the bodies rejected the last time apart from the rest, each
  // side in a module of its own. Whether it was split so.
  bool judged_apart(const std::vector<std::size_t>& members, const std::string& arch, Layout laid) {
    if (members.size() < 2) return false;
    // Bodies found alone to give a line about no member (ptxas's built-in code, on any target): each
    // alone at once, not found again by halves (the rest of the module keeps its layout).
    std::vector<std::size_t> suspect, others;
    for (auto k : members) (suspected(k) ? suspect : others).push_back(k);
    if (!suspect.empty()) {
      judge(others, arch, false, laid);
      for (auto k : suspect) judge({k}, arch);
      return true;
    }
    if (probes[members.front()].group != 0) return false;
    std::vector<std::size_t> before, rest;
    for (auto k : members) (rejected_last(k) ? before : rest).push_back(k);
    if (before.empty() || rest.empty()) return false;
    judge(rest, arch, false, Layout::OneFile);
    judge(before, arch, false, Layout::OneFile);
    return true;
  }

  void split_in_halves(const std::vector<std::size_t>& members, const std::string& arch) {
    const auto half = static_cast<std::ptrdiff_t>(members.size() / 2);
    const bool first_clean = judge({members.begin(), members.begin() + half}, arch);
    judge({members.begin() + half, members.end()}, arch, first_clean);
  }
};

// Over the module's files (one file: its text, as before files were many), -arch, mode, ptxas.
std::string key_of(const Module& m, const std::string& arch, ProbeMode mode, const Toolchain& tc) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  for (std::size_t f = 0; f < m.files.size(); ++f) {
    if (f > 0) XXH3_128bits_update(st, "\0file\0", 6);
    XXH3_128bits_update(st, m.files[f].data(), m.files[f].size());
  }
  const std::string rest = std::string(1, '\0') + arch + '\0' + (mode == ProbeMode::Full ? "full" : "parse") + '\0' + tc.version;
  XXH3_128bits_update(st, rest.data(), rest.size());
  const XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

// A module's verdicts: "ptxcts-probes 1 N\n", then per entry "+" or "-", the message's length,
// a newline and the message. Anything else (a cut record, another count) is not trusted.
std::string encode(const std::vector<ProbeVerdict>& v) {
  std::string s = fmt::format("{} {}\n", kRecordMagic, v.size());
  for (auto const& p : v) s += fmt::format("{}{}\n{}", p.accepted ? '+' : '-', p.message.size(), p.message);
  return s;
}

bool decode(const std::string& s, std::size_t n, std::vector<ProbeVerdict>& v) {
  const std::string head = fmt::format("{} {}\n", kRecordMagic, n);
  if (s.compare(0, head.size(), head) != 0) return false;
  std::size_t at = head.size();
  v.assign(n, {});
  for (std::size_t k = 0; k < n; ++k) {
    if (at >= s.size() || (s[at] != '+' && s[at] != '-')) return false;
    v[k].accepted = s[at] == '+';
    char* end = nullptr;
    const unsigned long long len = std::strtoull(s.c_str() + at + 1, &end, 10);
    if (!end || *end != '\n') return false;
    at = static_cast<std::size_t>(end - s.c_str()) + 1;
    if (at + len > s.size()) return false;
    v[k].message = s.substr(at, len);
    at += len;
  }
  return at == s.size();
}

}  // namespace

namespace {

// probe_arch's text appended to `out` (no string made per probe where a call hashes 170,000 of them).
void append_arch(std::string& out, const Probe& p, ProbeMode mode) {
  const bool full = mode == ProbeMode::Full;
  if (!p.arch.empty()) {
    if (full && p.arch.rfind("compute_", 0) == 0) out.append("sm_").append(p.arch, 8);
    else out.append(p.arch);
  } else if (full) out.append(p.target);
  else out.append("compute_").append(p.target, 3);
}

}  // namespace

std::string probe_arch(const Probe& p, ProbeMode mode) {
  std::string arch;
  append_arch(arch, p, mode);
  return arch;
}

namespace {

// A module to judge: its members (indices into the probes), its -arch, its catalog key.
struct ModuleWork {
  std::vector<std::size_t> members;
  std::string arch, key;
};

// Modules: probes of one (target, version, -arch, group), in their order, kProbesPerModule at most
// (kRejectedProbesPerModule of those expected rejected); the largest first, so that no long one
// starts last. `judged`: the probes to judge (one of each identical set), in the call's order.
std::vector<ModuleWork> module_work(const std::vector<Probe>& probes, const std::vector<std::size_t>& judged,
                                    ProbeMode mode) {
  std::map<std::tuple<std::string, PtxVersion, std::string, int>, std::vector<std::size_t>> groups;
  for (std::size_t k : judged)
    groups[{probes[k].target, probes[k].ptx, probe_arch(probes[k], mode), probes[k].group}].push_back(k);
  std::vector<ModuleWork> work;
  for (auto& [g, members] : groups) {
    const int group = std::get<3>(g);
    const std::size_t size = group == 0 ? kProbesPerModule : kRejectedProbesPerModule;
    for (std::size_t at = 0; at < members.size(); at += size)
      work.push_back({.members = {members.begin() + static_cast<std::ptrdiff_t>(at),
                                  members.begin() + static_cast<std::ptrdiff_t>(std::min(members.size(), at + size))},
                      .arch = std::get<2>(g),
                      .key = ""});
  }
  std::stable_sort(work.begin(), work.end(),
                   [](const ModuleWork& a, const ModuleWork& b) { return a.members.size() > b.members.size(); });
  return work;
}

// The probes judged for the call: one of each set of identical ones (target, PTX ISA version,
// -arch, directives, body), the first, or the first that ends ptxas's parse (group 2, kept in
// modules of its own kind); `slot_of` each probe's set, `judged[slot]` the probe judged for it.
struct Distinct {
  std::vector<std::size_t> judged, slot_of;
};

bool same_probe(const Probe& a, const Probe& b, ProbeMode mode) {
  return a.target == b.target && a.ptx == b.ptx && a.body == b.body && a.directives == b.directives &&
         probe_arch(a, mode) == probe_arch(b, mode);
}

// The call's identical sets and the key of its whole record, in one pass over its probes: the record
// key over every probe in order (target, version, -arch, group, directives, body; each part ended by
// a NUL), the mode, the ptxas version and the record's format; a probe's set by the same parts but
// its group. A warm audit is this pass and one record's read.
struct CallIdentity {
  Distinct distinct;
  std::string key;
};

CallIdentity call_identity(const std::vector<Probe>& probes, ProbeMode mode, const Toolchain& tc) {
  CallIdentity c;
  Distinct& d = c.distinct;
  d.slot_of.resize(probes.size());
  std::unordered_multimap<std::uint64_t, std::size_t> seen;  // hash -> slot
  seen.reserve(probes.size());
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  auto part = [&](std::string_view s) {
    XXH3_128bits_update(st, s.data(), s.size());
    XXH3_128bits_update(st, "", 1);
  };
  part(kRecordMagic);
  part(mode == ProbeMode::Full ? "full" : "parse");
  part(tc.version);
  std::string head, rest;  // target, version and -arch; directives and body
  for (std::size_t k = 0; k < probes.size(); ++k) {
    const Probe& p = probes[k];
    head.clear();
    fmt::format_to(std::back_inserter(head), "{}{}{}.{}{}", p.target, '\0', p.ptx.major, p.ptx.minor, '\0');
    append_arch(head, p, mode);
    head.push_back('\0');
    rest.assign(p.directives).push_back('\0');
    rest.append(p.body).push_back('\0');
    XXH3_128bits_update(st, head.data(), head.size());
    const char group[2] = {static_cast<char>('0' + p.group), '\0'};
    XXH3_128bits_update(st, group, 2);
    XXH3_128bits_update(st, rest.data(), rest.size());
    const std::uint64_t h = XXH3_64bits_withSeed(rest.data(), rest.size(), XXH3_64bits(head.data(), head.size()));
    std::optional<std::size_t> slot;
    for (auto [it, end] = seen.equal_range(h); it != end && !slot; ++it)
      if (same_probe(probes[d.judged[it->second]], p, mode)) slot = it->second;
    if (!slot) {
      slot = d.judged.size();
      d.judged.push_back(k);
      seen.emplace(h, *slot);
    } else if (p.group == 2 && probes[d.judged[*slot]].group != 2) {
      d.judged[*slot] = k;
    }
    d.slot_of[k] = *slot;
  }
  const XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  c.key = fmt::format("{:016x}{:016x}", h.high64, h.low64);
  return c;
}

}  // namespace

namespace {

// Each module's verdicts from its record, or judged (ptxas) and recorded: into `out`, by probe.
void judge_modules(const Toolchain& tc, const std::vector<Probe>& probes, std::vector<ModuleWork>& work,
                   const fs::path& cache_dir, const fs::path& scratch, bool writable, int jobs, ProbeMode mode,
                   std::vector<ProbeVerdict>& out, ProbeStats& stats) {
  std::atomic<std::size_t> next{0}, runs{0}, cached{0}, errors{0};
  std::set<std::string> suspects;
  std::unordered_map<std::uint64_t, bool> last_rejected;
  std::mutex suspects_lock;
  auto worker = [&] {
    WorkerFiles files(scratch);
    for (std::size_t w; (w = next++) < work.size();) {
      ModuleWork& job = work[w];
      job.key = key_of(compose(probes, job.members, first_layout(probes, job.members)), job.arch, mode, tc);
      const fs::path record = cache_dir / (job.key + ".probes");
      std::vector<ProbeVerdict> known;
      SealedRead read = read_sealed(record);
      if (read.good() && decode(read.content, job.members.size(), known)) {
        for (std::size_t j = 0; j < job.members.size(); ++j) out[job.members[j]] = std::move(known[j]);
        cached += job.members.size();
        continue;
      }
      if (read.state == SealedRead::State::Bad || read.good())
        discard_bad_entry(record, read.good() ? "sealed, but not " + std::to_string(job.members.size()) + " verdicts" : read.why);
      Judging{.tc = tc, .probes = probes, .mode = mode, .files = files, .out = out, .runs = runs,
              .suspects = suspects, .suspects_lock = suspects_lock, .last_rejected = last_rejected}
          .judge(job.members, job.arch);
      std::vector<ProbeVerdict> mine;
      bool failed = false;
      for (auto k : job.members) {
        mine.push_back(out[k]);
        failed = failed || !out[k].error.empty();
        errors += !out[k].error.empty();
      }
      if (!failed && writable) write_sealed(record, encode(mine));  // only verdicts are kept
    }
  };
  run_threads(jobs, worker);
  stats.cached = cached, stats.ptxas_runs = runs, stats.errors = errors, stats.modules = work.size();
}

// The verdicts of the judged probes (one per identical set) from the call's whole record, if it
// holds them all: into `out`, each set's verdict given to every probe of it.
bool read_whole_call(const fs::path& record, const Distinct& d, std::vector<ProbeVerdict>& out) {
  SealedRead read = read_sealed(record);
  std::vector<ProbeVerdict> known;
  if (!read.good() || !decode(read.content, d.judged.size(), known)) {
    if (read.state == SealedRead::State::Bad || read.good())
      discard_bad_entry(record, read.good() ? "sealed, but not the call's verdicts" : read.why);
    return false;
  }
  for (std::size_t k = 0; k < out.size(); ++k)  // the repeats copied first, then each judged one moved
    if (d.judged[d.slot_of[k]] != k) out[k] = known[d.slot_of[k]];
  for (std::size_t slot = 0; slot < d.judged.size(); ++slot) out[d.judged[slot]] = std::move(known[slot]);
  return true;
}

}  // namespace

std::vector<ProbeVerdict> assemble_probes(const Toolchain& tc, const std::vector<Probe>& probes,
                                          const fs::path& cache_dir, int jobs, ProbeMode mode, ProbeStats* stats) {
  std::vector<ProbeVerdict> out(probes.size());
  const CallIdentity call = call_identity(probes, mode, tc);
  const Distinct& d = call.distinct;
  ProbeStats s{.probes = probes.size(), .distinct = d.judged.size()};
  const fs::path whole = cache_dir / (call.key + ".call");
  if (read_whole_call(whole, d, out)) {
    s.cached = probes.size(), s.whole_call_cached = true;
    if (stats) *stats = s;
    return out;
  }
  std::vector<ModuleWork> work = module_work(probes, d.judged, mode);
  // A catalog copied read-only is still used: its verdicts are read, nothing is written into it.
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  const bool writable = !ec && ::access(cache_dir.c_str(), W_OK) == 0;
  // ptxas's input files, thousands a call, in a folder of this process's own in memory where there
  // is one (ext4's inode search for each new file cost ptxas 13.0's cold audit 3 CPU-s of 46);
  // owned (util/owned_folder): removed on a signal too, and swept by the next run after a SIGKILL.
  struct Scratch {
    fs::path dir = make_owned_folder(memory_backed_parent(), "ptxcts-probes");
    ~Scratch() { remove_owned_folder(dir); }
  } scratch;
  judge_modules(tc, probes, work, cache_dir, scratch.dir, writable, jobs, mode, out, s);
  for (std::size_t k = 0; k < probes.size(); ++k)
    if (d.judged[d.slot_of[k]] != k) out[k] = out[d.judged[d.slot_of[k]]];
  if (writable && s.errors == 0) {
    std::vector<ProbeVerdict> judged;
    for (std::size_t k : d.judged) judged.push_back(out[k]);
    write_sealed(whole, encode(judged));
  }
  // Said only where it costs something: verdicts judged here that the next audit judges again. A
  // catalog that holds them all (an installed package's, read-only to its user) is only read.
  if (!writable && s.cached < d.judged.size())
    fmt::print(stderr, "audit: {} cannot be written: {} probe verdicts judged here are not kept in it\n",
               cache_dir.string(), d.judged.size() - s.cached);
  if (stats) *stats = s;
  return out;
}

}  // namespace ptxcts
