#include "assemble/cubin_functions.hpp"

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace ptxcts {

namespace {

template <typename T>
T read_at(std::string_view bytes, std::uint64_t offset, const char* what) {
  T v;
  if (offset > bytes.size() || bytes.size() - offset < sizeof v)
    throw std::runtime_error(fmt::format("{} at byte {} lies past the end of the file ({} bytes)", what, offset, bytes.size()));
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

}  // namespace

std::vector<CubinFunction> cubin_functions(std::string_view elf) {
  const auto h = read_at<Elf64_Ehdr>(elf, 0, "the ELF header");
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) throw std::runtime_error("not an ELF file");
  if (h.e_ident[EI_CLASS] != ELFCLASS64) throw std::runtime_error("not a 64-bit ELF file");
  if (h.e_shentsize != sizeof(Elf64_Shdr))
    throw std::runtime_error(fmt::format("section headers of {} bytes, not {}", h.e_shentsize, sizeof(Elf64_Shdr)));
  auto section = [&](unsigned k) { return read_at<Elf64_Shdr>(elf, h.e_shoff + std::uint64_t{k} * h.e_shentsize, "a section header"); };
  if (h.e_shstrndx >= h.e_shnum) throw std::runtime_error(fmt::format("section names in section {} of {}", h.e_shstrndx, h.e_shnum));
  const Elf64_Shdr names = section(h.e_shstrndx);
  if (names.sh_offset > elf.size() || elf.size() - names.sh_offset < names.sh_size)
    throw std::runtime_error("the section names lie past the end of the file");
  const std::string_view name_table = elf.substr(names.sh_offset, names.sh_size);
  std::vector<CubinFunction> out;
  for (unsigned k = 0; k < h.e_shnum; ++k) {
    const Elf64_Shdr s = section(k);
    if (s.sh_type != SHT_PROGBITS || !(s.sh_flags & SHF_EXECINSTR)) continue;
    if (s.sh_name >= name_table.size()) throw std::runtime_error(fmt::format("section {}'s name lies outside the names", k));
    const std::string_view name = name_table.substr(s.sh_name, name_table.find('\0', s.sh_name) - s.sh_name);
    if (name.rfind(".text.", 0) != 0) continue;
    if (s.sh_offset > elf.size() || elf.size() - s.sh_offset < s.sh_size)
      throw std::runtime_error(fmt::format("section {} lies past the end of the file", name));
    out.push_back({.name = std::string(name.substr(6)), .code = std::string(elf.substr(s.sh_offset, s.sh_size))});
  }
  return out;
}

}  // namespace ptxcts
