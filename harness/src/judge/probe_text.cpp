#include "judge/probe_text.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ptxcts {
namespace {

// Each operand's registers get a prefix of their own, so that types never clash.
std::string prefix(const std::string& operand) {
  if (operand == "regs") return "%v";
  if (operand == "dst") return "%dst";
  if (operand == "src") return "%src";
  return "%o" + operand;  // d, a, b, c, and any other operand (mma's scale_a: %oscale_a)
}

std::string type_of(const OperandShape& s, const std::string& operand) {
  auto t = s.types.find(operand);
  return t == s.types.end() ? ".b32" : t->second;
}

struct Filled {
  std::string instruction, declarations;
};

// Written with appends into reserved strings, not fmt or a char at a time: the audit's plan fills
// over 100,000 probes, and this was a third of its instructions (40% fewer this way).
Filled fill(const std::string& text, const OperandShape& s) {
  std::string body = text;
  // The address form first: it may carry the {addr} placeholder itself.
  if (s.address != "[{addr}]")
    if (auto at = body.find("[{addr}]"); at != std::string::npos) body.replace(at, 8, s.address);
  Filled f;
  f.instruction.reserve(body.size() + 64);
  f.declarations.reserve(s.declarations.size() + 96);
  f.declarations = s.declarations;
  std::vector<std::string> declared;  // a handful at most
  auto declare = [&](std::string line) {
    if (std::find(declared.begin(), declared.end(), line) != declared.end()) return;
    f.declarations.append(line).append("\n");
    declared.push_back(std::move(line));
  };
  for (std::size_t p = 0; p < body.size();) {
    const std::size_t open = body.find('{', p);
    const std::size_t close = open == std::string::npos ? open : body.find('}', open);
    if (close == std::string::npos) {  // no placeholder left
      f.instruction.append(body, p, std::string::npos);
      break;
    }
    f.instruction.append(body, p, open - p);
    const std::string_view name = std::string_view(body).substr(open + 1, close - open - 1);
    if (name == "addr") {
      declare(".reg .b" + std::to_string(s.address_width) + " %ad;");
      f.instruction += "%ad";
    } else if (name == "stride") {
      declare(".reg .b32 %st;");
      f.instruction += "%st";
    } else if (name == "e") {  // a 32-bit operand a qualifier's value adds (sparse metadata)
      declare(".reg .b32 %oe;");
      f.instruction += "%oe";
    } else if (name == "dst" || name == "src") {
      const std::string n(name);
      declare(".reg " + type_of(s, n) + " " + prefix(n) + ";");
      f.instruction += prefix(n);
    } else if (name == "regs" || name == "d" || name == "a" || name == "b" || name == "c" ||
               s.registers.count(std::string(name))) {
      const std::string n(name);
      auto r = s.registers.find(n);
      const int count = r == s.registers.end() ? 1 : r->second;
      const std::string pre = prefix(n);
      if (count > 0) declare(".reg " + type_of(s, n) + " " + pre + "<" + std::to_string(count) + ">;");
      const bool braces = !s.unbraced.count(n);
      if (braces) f.instruction += '{';
      for (int k = 0; k < count; ++k) f.instruction.append(k ? ", " : "").append(pre).append(std::to_string(k));
      if (braces) f.instruction += '}';
    } else if (s.types.count(std::string(name))) {  // an operand of one register beyond the operation's own
      const std::string n(name);
      declare(".reg " + type_of(s, n) + " " + prefix(n) + ";");
      f.instruction += prefix(n);
    } else {  // a brace the text really has (a vector written out)
      f.instruction.append(body, open, close - open + 1);
    }
    p = close + 1;
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
  std::string body = std::move(f.declarations);
  body.append(f.instruction).append("\n");
  return {.instruction = std::move(f.instruction), .body = std::move(body)};
}

std::string probe_instruction(const std::string& text, const OperandShape& shape) {
  return fill(text, shape).instruction;
}

}  // namespace ptxcts
