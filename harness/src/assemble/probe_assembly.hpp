// Probes: cheap acceptance verdicts. A probe is one tiny entry (the registers it declares and one
// instruction); thousands go to a module of one target and PTX ISA version, one ptxas process each,
// and every line of what ptxas says is pinned on its entry by line number. By default ptxas only
// parses (-arch=compute_XX: it judges the PTX and generates no code, stopping before code
// generation when the module has errors); Full assembles for the real target, to show that both
// give the same verdicts and messages.
//
// A rejected module's entries that no error was pinned on are assembled again without the rejected
// ones (a fatal syntax error ends the parse, so what follows it was never judged, and where the
// parse found errors ptxas does not lower the rest, whose errors of the built-in code wmma becomes
// come only then); ptxas crashing on a module (SIGSEGV, ...) splits it in halves down to the entry
// it crashes on, whose errors before the crash are its verdict; lines that
// cannot be pinned (the module's header, ptxas's built-in code, no line number) first split the
// entries an error was pinned on from the others (the line is one side's), then split a module of
// rejected entries in halves until they can be pinned, or an entry is alone. A module with nothing
// pinned at all (a fatal error in ptxas's built-in code) is split in halves down to the entry: a
// half whose other half ran clean is split without being run whole, and a body found alone to give
// such a line (on any target) is judged alone first in the next such module. In a module of entries
// expected to be accepted, those whose body an error was pinned on the last time it was judged (on
// another target, at another PTX ISA version) are judged apart from the rest, which is then most
// often accepted in one run rather than run again after each rejection (ptxas 13.0's cold audit:
// 137,724 entries assembled for 41,511 such probes before, 54,101 after). Verdicts do not depend on
// which module an entry is in; they are cached per module by content (its text, -arch, mode,
// ptxas version): a second call with nothing changed starts no ptxas.
//
// A module is one or more files, all given to one ptxas process, which parses each file apart: probes
// expected to end the parse (a syntax error) each go in a file of their own, as do, after a fatal
// error ended the parse of a module's one file, the entries it did not judge; so one run judges them
// all (ptxas 13.0's cold audit: 2,020 runs before, 1,134 after, the same verdicts). Each such file
// opens with an entry of its own ("ret;") that takes what ptxas leaves of the instruction a fatal
// error stopped in, and the last file (no member's) holds an error, so that nothing is lowered: such
// a run is a parse, and what it takes is judged again in one file. Where no file has an error ptxas
// lowers them together, and a wmma in a second file then fails to find its built-in code.
// ptxas expands what a file's parse took (a wmma; an mma it emulates) into its built-in code file by
// file, stopping in a file at its first failure and going on with the next: a rest rejected again in
// one file goes again a file each, so that one run finds every such failure (ptxas 13.0's cold
// audit: 1,151 runs before, 1,012 after, the same verdicts).
//
// Identical probes (the same target, PTX ISA version, -arch, directives and body: several kinds of
// question often ask the same thing) are judged once and the verdict given to each that asked it.
// A call's verdicts are also kept whole, under one key over every probe of the call (each one's
// target, version, -arch, group, directives and body, the mode and the ptxas version, with the
// record's format): a call with nothing changed reads that one record, composing and hashing no
// module.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assemble/toolchain.hpp"
#include "spec/ptx_version.hpp"

namespace ptxcts {

struct Probe {
  std::string target;  // the module's .target, e.g. "sm_90a", or "sm_70" (which ptxas 13 no longer knows)
  PtxVersion ptx;      // the module's .version
  std::string body;    // the entry's body: declaration and instruction lines, '\n'-separated, no braces
  std::string arch{};  // -arch to use; empty: compute_<target> (ParseOnly) or the target itself (Full)
  // Probes of different groups never share a module: a caller that expects some to be accepted and
  // others rejected keeps them apart, so that a module of acceptances is judged in one run.
  int group = 0;
  // Directives of the entry, between its parameters and its body (".maxnreg 63"): none for most.
  std::string directives{};
};

// How a probe's message ends where ptxas rejected it and then crashed on it alone (SIGSEGV, ...).
inline constexpr const char* kPtxasCrashed = "ptxas crashed on it";

struct ProbeVerdict {
  bool accepted = false;
  // ptxas's lines about this probe, file named "probe.ptx" and numbered from the body's first line:
  // "ptxas probe.ptx, line 3; error   : ...". An accepted probe keeps its warnings.
  std::string message;
  std::string error{};  // ptxas failed without a verdict (killed, past its limit, ...): never cached
};

enum class ProbeMode { ParseOnly, Full };

struct ProbeStats {
  std::size_t probes = 0, cached = 0, modules = 0, ptxas_runs = 0, errors = 0;
  std::size_t distinct = 0;  // probes judged: those of the call less the repeats of an identical one
  bool whole_call_cached = false;  // every verdict read from the call's one record
};

// Probes in a module at most: past a few thousand, a module's parse no longer gets cheaper per
// entry, and smaller modules keep both workers busy to the end. Groups other than 0 (probes
// expected to be rejected) go in smaller modules: a message ptxas cannot pin on an entry (from its
// own built-in code) splits a module in halves, which costs less in a small one; but each module is
// a ptxas process (about 7 ms of its own) and most are run again for the entries it accepts. ptxas
// 13.0's cold audit, CPU-s: 200 a module 37.2, 400 33.6, 600 31.8, 1000 31.7, 2000 38.8.
inline constexpr std::size_t kProbesPerModule = 2000;
inline constexpr std::size_t kRejectedProbesPerModule = 600;
// A module that small of rejected entries whose messages cannot all be pinned is split into its
// members at once (one with no error pinned on any entry is split in halves down to one).
inline constexpr std::size_t kSplitAlone = 16;

// Verdicts in the probes' order.
std::vector<ProbeVerdict> assemble_probes(const Toolchain& tc, const std::vector<Probe>& probes,
                                          const std::filesystem::path& cache_dir, int jobs,
                                          ProbeMode mode = ProbeMode::ParseOnly, ProbeStats* stats = nullptr);

// The -arch a probe is assembled with.
std::string probe_arch(const Probe& p, ProbeMode mode);

}  // namespace ptxcts
