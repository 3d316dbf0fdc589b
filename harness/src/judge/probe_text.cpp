#include "judge/probe_text.hpp"

#include <fmt/format.h>

#include <set>

namespace ptxcts {
namespace {

// Each operand's registers get a prefix of their own, so that types never clash.
std::string prefix(const std::string& operand) {
  if (operand == "regs") return "%v";
  if (operand == "dst") return "%dst";
  if (operand == "src") return "%src";
  return "%o" + operand;  // d, a, b, c
}

std::string type_of(const OperandShape& s, const std::string& operand) {
  auto t = s.types.find(operand);
  return t == s.types.end() ? ".b32" : t->second;
}

struct Filled {
  std::string instruction, declarations;
};

Filled fill(const std::string& text, const OperandShape& s) {
  std::string body = text;
  // The address form first: it may carry the {addr} placeholder itself.
  if (s.address != "[{addr}]")
    if (auto at = body.find("[{addr}]"); at != std::string::npos) body.replace(at, 8, s.address);
  Filled f;
  f.declarations = s.declarations;
  std::set<std::string> declared;
  auto declare = [&](const std::string& line) {
    if (declared.insert(line).second) f.declarations += line + "\n";
  };
  for (std::size_t p = 0; p < body.size(); ++p) {
    if (body[p] != '{' || body.find('}', p) == std::string::npos) {
      f.instruction += body[p];
      continue;
    }
    std::size_t close = body.find('}', p);
    const std::string name = body.substr(p + 1, close - p - 1);
    if (name == "addr") {
      declare(fmt::format(".reg .b{} %ad;", s.address_width));
      f.instruction += "%ad";
    } else if (name == "stride") {
      declare(".reg .b32 %st;");
      f.instruction += "%st";
    } else if (name == "dst" || name == "src") {
      declare(fmt::format(".reg {} {};", type_of(s, name), prefix(name)));
      f.instruction += prefix(name);
    } else if (name == "regs" || name == "d" || name == "a" || name == "b" || name == "c") {
      auto n = s.registers.find(name);
      const int count = n == s.registers.end() ? 1 : n->second;
      if (count > 0) declare(fmt::format(".reg {} {}<{}>;", type_of(s, name), prefix(name), count));
      const std::string p = prefix(name);  // (appends, not fmt: tens of thousands of probes)
      const bool braces = !s.unbraced.count(name);
      if (braces) f.instruction += '{';
      for (int k = 0; k < count; ++k) f.instruction.append(k ? ", " : "").append(p).append(std::to_string(k));
      if (braces) f.instruction += '}';
    } else {  // a brace the text really has (a vector written out)
      f.instruction += body.substr(p, close - p + 1);
    }
    p = close;
  }
  return f;
}

}  // namespace

std::string probe_body(const std::string& text, const OperandShape& shape) {
  Filled f = fill(text, shape);
  return f.declarations + f.instruction + "\n";
}

ProbeText probe_text(const std::string& text, const OperandShape& shape) {
  Filled f = fill(text, shape);
  return {.instruction = f.instruction, .body = f.declarations + f.instruction + "\n"};
}

std::string probe_instruction(const std::string& text, const OperandShape& shape) {
  return fill(text, shape).instruction;
}

}  // namespace ptxcts
