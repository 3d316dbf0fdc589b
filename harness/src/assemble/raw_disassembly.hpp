// Many cubins of one target in one disassembler process: nvdisasm's raw-binary mode (-b SM90a) on
// their machine code, the listing cut back into each cubin's functions. A process per cubin paid
// nvdisasm's start (about half a second) each time, and it lists about 40,000 instructions a
// second. From Volta (sm_70) on, every instruction is 16 bytes and is decoded alone, and a
// catalog's kernels share most of theirs (the harness around the instruction under test): each
// distinct 16-byte word is listed once (on sm_90, 15,829 distinct of 111,512). Before Volta the
// functions are laid end to end, each from a 128-byte boundary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "assemble/disassembler.hpp"

namespace ptxcts {

// A result per cubin, in their order, as disassemble_cubin would give it (its ELF listing: each
// function's opcodes in address order). Only nvdisasm has the mode: with another tool, or where the
// process fails, every cubin gets the error (the caller then disassembles them one by one); a cubin
// that cannot be read gets its own error.
std::vector<DisassemblyResult> disassemble_cubins_raw(const Disassembler& d, const std::string& target,
                                                      const std::vector<std::filesystem::path>& cubins,
                                                      double timeout_seconds = 300);

// nvdisasm's name of a target in raw-binary mode: "sm_90a" -> "SM90a".
std::string raw_binary_arch(const std::string& target);

// A raw-binary listing's instructions: address and opcode, in the listing's order.
std::vector<std::pair<std::uint64_t, std::string>> parse_raw_listing(const std::string& text);

}  // namespace ptxcts
