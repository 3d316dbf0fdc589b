// What every kind's emitter shares: the kernel skeletons of kernels/ and how they are filled.
// A skeleton is PTX with {{FIELD}}s; a kind's emitter fills them (kinds/*/..._emitter.cpp).
// May call: util/.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace ptxcts {

// Replaces every {{FIELD}} of a skeleton. Throws std::runtime_error if the skeleton lacks a field
// or has one not in `fields`.
std::string fill_skeleton(const std::string& skeleton, const std::map<std::string, std::string>& fields);

// The operand placeholders of an instruction's text ({regs}, {addr}, ...), shared by the emitters:
// every occurrence of `field` in `text` becomes `value`.
void fill_placeholder(std::string& text, const std::string& field, const std::string& value);
// A vector operand of numbered registers: "{%<prefix><first>, %<prefix><first + 1>, ...}".
std::string register_list(const std::string& prefix, int first, int count);

// The skeletons of kernels/ by file name; each kind names its own (InstructionKind::skeleton).
struct KernelSkeletons {
  std::map<std::string, std::string> by_file;
  // Throws std::runtime_error naming the file when it is not there.
  const std::string& at(const std::string& file) const;
};
// Every kernels/*.ptx.in. Throws std::runtime_error when one cannot be read.
KernelSkeletons read_kernel_skeletons(const std::filesystem::path& dir);

}  // namespace ptxcts
