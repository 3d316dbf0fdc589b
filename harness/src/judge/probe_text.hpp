// The body of a probe entry (assemble/probe_assembly.hpp): an instruction's text with its operand
// placeholders ({regs}, {addr}, {stride}, {dst}, {src}, {d}, {a}, {b}, {c}, and any operand the shape
// gives registers or a register type, such as mma's {scale_a}) filled with registers,
// and the declarations of those registers. One instruction, nothing around it: what ptxas says is
// about the instruction alone.
#pragma once

#include <map>
#include <set>
#include <string>

namespace ptxcts {

struct OperandShape {
  std::map<std::string, int> registers;       // vector operand -> how many registers
  std::map<std::string, std::string> types;   // register operand -> register type (default .b32)
  int address_width = 64;                     // the address register's width
  std::string address = "[{addr}]";           // how the address is written: "[{addr}]", "[{addr}+16]", "[16]"
  std::string declarations{};                 // lines declared before the others (a variable an address names)
  std::set<std::string> unbraced{};           // vector operands written without their braces
  // Vector operands whose elements the documents also write as immediates (grammar_model.hpp's
  // ExtraOperand::immediates): an immediate there is no mutation.
  std::set<std::string> immediates{};
};

// The probe's body: declaration lines, then the instruction. The instruction's own line is the last.
std::string probe_body(const std::string& text, const OperandShape& shape);

// The instruction as the probe writes it (operands filled), for reports.
std::string probe_instruction(const std::string& text, const OperandShape& shape);

// Both at once.
struct ProbeText {
  std::string instruction, body;
};
ProbeText probe_text(const std::string& text, const OperandShape& shape);

}  // namespace ptxcts
