// What the code becomes: the toolkit's disassembler (cuobjdump or nvdisasm) run on a cubin, and
// its listing read into each function's SASS opcodes ("LDSM.16.M88.4", with every modifier). The
// disassembler is looked for beside the toolkit's ptxas (its bin/, as installed or fetched), then
// in $PTXCTS_DISASSEMBLER, then beside the other toolkits found (the newest first: a newer
// disassembler reads older cubins); where none is found, the reason is kept and shown, and nothing
// fails.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxcts {

struct Disassembler {
  std::string path;              // the binary
  std::string tool;              // "cuobjdump" or "nvdisasm" (from the file name)
  std::string version;           // "13.5.37", as the binary says (--version)
  std::string release;           // "13.5"
  std::string note;              // where it came from when not the toolkit's own: "of CUDA 13.5; CUDA 13.0 has none"
  std::string describe() const;  // "cuobjdump 13.5.37 (of CUDA 13.5; ...)"
};

// The disassembler to use, or why there is none.
struct DisassemblerChoice {
  std::optional<Disassembler> tool;
  std::string unavailable;  // no tool: why ("no disassembler: none beside /usr/local/cuda/bin/ptxas, ...")
};

// Asks the binary at `path` what it is (`--version`); nullopt if it does not run or say, and then
// `why`, if given, says which ("its --version said \"...\", which names no release; ...").
std::optional<Disassembler> probe_disassembler(const std::filesystem::path& path, std::string* why = nullptr);

// The disassembler beside `ptxas` (nvdisasm, else cuobjdump, in the same folder), nullopt if none.
std::optional<Disassembler> disassembler_beside(const std::filesystem::path& ptxas);

// The one for the toolkit whose ptxas is `ptxas` of release `release`: its own, else
// $PTXCTS_DISASSEMBLER (`env`), else the newest beside one of `other_ptxas` (other toolkits).
DisassemblerChoice choose_disassembler(const std::string& ptxas, const std::string& release, const std::string& env,
                                       const std::vector<std::string>& other_ptxas);

// One listing line's instruction ("/*0260*/  @P0 LDSM.16.M88.4 R4, [R2] ;"): its address and its
// opcode with every modifier; nullopt for any other line.
std::optional<std::pair<std::uint64_t, std::string>> sass_instruction(const std::string& line);

// A listing: each function's opcodes in address order.
using SassListing = std::map<std::string, std::vector<std::string>>;

// Reads a `cuobjdump -sass` or `nvdisasm` listing. Throws std::runtime_error naming the line when
// an instruction line appears outside any function.
SassListing parse_sass_listing(const std::string& text);

struct DisassemblyResult {
  SassListing functions;
  std::string error;  // non-empty: the disassembler failed (how, and what it said)
};

// One disassembler process for one cubin (neither tool takes several input files).
DisassemblyResult disassemble_cubin(const Disassembler& d, const std::filesystem::path& cubin,
                                    double timeout_seconds = 120);

// One process for one function of a cubin (cuobjdump -fun NAME): the naive way, kept for the
// benchmark (nvdisasm: an error, its -fun takes an index).
DisassemblyResult disassemble_function(const Disassembler& d, const std::filesystem::path& cubin,
                                       const std::string& function, double timeout_seconds = 120);

// The last line of a tool's output that says something (where it puts its "fatal" line), at most 300 characters.
std::string last_line(const std::string& output);

// The opcode's mnemonic: "LDSM" of "LDSM.16.M88.4".
std::string sass_mnemonic(const std::string& opcode);

}  // namespace ptxcts
