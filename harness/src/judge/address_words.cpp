#include "judge/address_words.hpp"

#include <array>

namespace ptxcts {
namespace {

bool begins(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

// wmma.store's section, 9.7.14.4.4, is the one seed 001 holds verbatim (shared/reference has only wmma.load).
SectionWords address_words(const std::string& text) {
  if (begins(text, "ldmatrix"))
    return {.words = "Supported addressing modes for p are described in Addresses as Operands.",
            .source = "PTX ISA 9.0, 9.7.14.5.15 ldmatrix, Description (6.4.1 Addresses as Operands: [reg], "
                      "[reg+immOff], [var], [var+immOff], [immAddr])",
            .paraphrase = ""};
  if (begins(text, "stmatrix"))
    return {.words = "Supported addressing modes for p are described in Addresses as Operands.",
            .source = "PTX ISA 9.0, 9.7.14.5.16 stmatrix, Description (6.4.1 Addresses as Operands: [reg], "
                      "[reg+immOff], [var], [var+immOff], [immAddr])",
            .paraphrase = ""};
  if (begins(text, "wmma.load"))
    return {.words = "Collectively load a matrix across all threads in a warp from the location indicated by address "
                     "operand p in the specified state space into destination register r.",
            .source = "PTX ISA 9.0, 9.7.14.4.3 wmma.load, Description (the section names no addressing mode; "
                      "6.4.1 Addresses as Operands is the manual's general rule)",
            .paraphrase = ""};
  if (begins(text, "wmma.store"))
    return {.words = "Collectively store a matrix across all threads in a warp at the location indicated by address "
                     "operand p in the specified state space from source register r.",
            .source = "PTX ISA 9.0, 9.7.14.4.4 wmma.store, Description (the section names no addressing mode; "
                      "6.4.1 Addresses as Operands is the manual's general rule)",
            .paraphrase = ""};
  return {};
}

SectionWords state_space_words(const std::string& text) {
  if (begins(text, "ldmatrix"))
    return {.words = "from .shared state space into destination register r",
            .source = "PTX ISA 9.0, 9.7.14.5.15 ldmatrix, Description",
            .paraphrase = ""};
  if (begins(text, "stmatrix"))
    return {.words = "the address operand p, in .shared state space",
            .source = "PTX ISA 9.0, 9.7.14.5.16 stmatrix, Description",
            .paraphrase = ""};
  // The wmma.store section repeats wmma.load's sentence word for word, "wmma.load" included.
  const char* wmma = "wmma.load operation may be used only with .global and .shared spaces and with generic "
                     "addressing, where the address points to .global or .shared space.";
  if (begins(text, "wmma.load"))
    return {.words = wmma, .source = "PTX ISA 9.0, 9.7.14.4.3 wmma.load, Description", .paraphrase = ""};
  if (begins(text, "wmma.store"))
    return {.words = wmma, .source = "PTX ISA 9.0, 9.7.14.4.4 wmma.store, Description", .paraphrase = ""};
  return {};
}

SpaceVerdict state_space_allowed(const std::string& text, const std::string& space) {
  // .shared::cluster is a window of the shared state space that none of these sections names: not said.
  if (space == ".shared::cluster" || state_space_words(text).words.empty()) return {.said = false, .allowed = false};
  const bool wmma = begins(text, "wmma");
  const std::array<const char*, 3> shared = {"", ".shared", ".shared::cta"};
  for (const char* s : shared)
    if (space == s) return {.said = true, .allowed = true};
  return {.said = true, .allowed = wmma && space == ".global"};
}

}  // namespace ptxcts
