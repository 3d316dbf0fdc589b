#include "judge/claimed_shapes.hpp"

#include <algorithm>

namespace ptxcts {

OperandShape form_shape(const AuditForm& f) {
  OperandShape s;
  // .f64 fragments (wmma's, mma's) are .f64 registers; every other operand here is 32-bit.
  const bool wide = f.text.find(".f64") != std::string::npos;
  if (f.operand_registers.empty()) s.registers["regs"] = f.registers;
  else s.registers = f.operand_registers;
  for (auto const& [o, n] : s.registers) s.types[o] = wide ? ".f64" : ".b32";
  s.address_width = f.address_width;
  return s;
}

const Instance* claimed_instance(const RegisterClaim& rc, const std::deque<Instance>& instances) {
  for (auto const& inst : instances) {
    if (inst.variant().name != rc.variant || (inst.address_width() != 64 && inst.address_width() != 0)) continue;
    bool all = true;
    for (auto const& [axis, vals] : rc.select)
      all = all && std::find(vals.begin(), vals.end(), inst.option(axis).text) != vals.end();
    if (all) return &inst;
  }
  return nullptr;
}

OperandShape instance_shape(const Instance& inst) {
  OperandShape shape;
  const bool wide = inst.text().find(".f64") != std::string::npos;  // .f64 fragments: .f64 registers
  for (const char* o : {"regs", "d", "a", "b", "c"})
    if (inst.text().find(std::string("{") + o + "}") != std::string::npos) {
      shape.registers[o] = instance_registers(inst, o);
      shape.types[o] = wide ? ".f64" : ".b32";
    }
  for (auto const& o : inst.variant().operands) {  // beyond d, a, b and c: as documented
    if (!o.single()) shape.registers[o.name] = o.elements;
    shape.types[o.name] = o.type;
  }
  return shape;
}

OperandShape claimed_shape(const RegisterClaim& rc, const Instance& inst) {
  OperandShape shape = instance_shape(inst);
  shape.registers[rc.operand] = rc.registers;
  return shape;
}

}  // namespace ptxcts
