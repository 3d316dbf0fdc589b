#include "assemble/cubin_check.hpp"

#include <elf.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

#include "util/file_text.hpp"
#include "util/sealed_file.hpp"

namespace ptxcts {

namespace {
constexpr int kEmCuda = 190;  // EM_CUDA
}

std::optional<std::string> cubin_problem(std::string_view bytes, const std::string& target) {
  Elf64_Ehdr h;
  if (bytes.size() < sizeof h) return fmt::format("{} bytes: too short for an ELF header", bytes.size());
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (h.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
  if (h.e_machine != kEmCuda) return fmt::format("ELF machine {}, not CUDA ({})", h.e_machine, kEmCuda);
  // The SM number: in e_flags bits 8-15 from ELF ABI version 8 (CUDA 12.8 on), bits 0-7 before.
  const int sm = std::atoi(target.c_str() + 3);
  const unsigned in_flags = h.e_ident[EI_ABIVERSION] >= 8 ? (h.e_flags >> 8) & 0xff : h.e_flags & 0xff;
  if (target.rfind("sm_", 0) != 0 || sm <= 0) return std::nullopt;  // nothing known to check it against
  if (static_cast<int>(in_flags) != sm) return fmt::format("an ELF object for sm_{}, not {}", in_flags, target);
  if (h.e_shoff > bytes.size()) return fmt::format("cut short: its section headers start at byte {} of {}", h.e_shoff, bytes.size());
  return std::nullopt;
}

std::string cubin_file_problem(const std::filesystem::path& path, const std::string& seal, const std::string& target) {
  std::optional<std::string> bytes = try_read_file_text(path);
  if (!bytes) return "missing";
  if (content_seal(*bytes) != seal)
    return fmt::format("{} bytes, not the {} recorded (size and checksum)", bytes->size(), seal);
  if (auto why = cubin_problem(*bytes, target)) return *why;
  return "";
}

}  // namespace ptxcts
