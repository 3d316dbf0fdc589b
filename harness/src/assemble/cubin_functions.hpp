// The machine code of each function of a cubin: its `.text.NAME` section's bytes. Many cubins'
// functions laid end to end go to one disassembler process in its raw-binary mode (nvdisasm -b),
// where one process per cubin would pay the disassembler's start (about half a second) each time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxcts {

struct CubinFunction {
  std::string name;  // "ldsm_kernel", from ".text.ldsm_kernel"
  std::string code;  // the section's bytes
};

// In section order. Throws std::runtime_error saying what is wrong with a file that is not a
// 64-bit ELF object or whose section table or names lie outside it.
std::vector<CubinFunction> cubin_functions(std::string_view elf);

}  // namespace ptxcts
