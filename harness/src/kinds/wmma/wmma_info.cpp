#include "kinds/wmma/wmma_info.hpp"

#include <stdexcept>

namespace ptxcts {
namespace {

std::string resolve(const Instance& inst, const AxisOrFixed& s) {
  return s.axis.empty() ? s.fixed : inst.option(s.axis).text;
}

const ElementFormat& format_of(const Instance& inst, const AxisOrFixed& s) {
  const ElementFormat* f = find_element_format(resolve(inst, s));
  if (!f) throw std::logic_error("unknown element type in " + inst.id());  // the loader checked it
  return *f;
}

std::int64_t var(const Instance& inst, const char* name) {
  const std::int64_t* v = inst.bindings().find(name);
  if (!v) throw std::logic_error(std::string("wmma.mma variant without shape variable ") + name + ": " + inst.id());
  return *v;
}

}  // namespace

WmmaMatrixInfo wmma_matrix_info(const Instance& inst) {
  const WmmaMatrix& m = *inst.variant().semantics_as<WmmaMatrix>();
  WmmaMatrixInfo out;
  out.matrix = m.matrix;
  const Bindings b = inst.bindings();
  out.rows = static_cast<int>(m.rows.eval(b));
  out.cols = static_cast<int>(m.cols.eval(b));
  out.format = &format_of(inst, m.element);
  out.col_major = resolve(inst, m.layout) == ".col";
  out.registers = inst.registers();
  out.register_bits = out.format->register_bits();
  for (auto const& a : inst.variant().axes)
    out.stride_operand = out.stride_operand || inst.option(a.name).text == ", {stride}";
  return out;
}

WmmaMmaInfo wmma_mma_info(const Instance& inst) {
  const WmmaMma& s = *inst.variant().semantics_as<WmmaMma>();
  const Bindings b = inst.bindings();
  WmmaMmaInfo out;
  out.m = static_cast<int>(var(inst, "m"));
  out.n = static_cast<int>(var(inst, "n"));
  out.k = static_cast<int>(var(inst, "k"));
  auto operand = [&](const WmmaOperand& o) {
    WmmaOperandInfo x;
    x.format = &format_of(inst, o.element);
    x.col_major = !o.layout.axis.empty() || !o.layout.fixed.empty() ? resolve(inst, o.layout) == ".col" : false;
    x.registers = static_cast<int>(o.registers.eval(b));
    x.register_bits = x.format->register_bits();
    return x;
  };
  out.a = operand(s.a);
  out.b = operand(s.b);
  out.c = operand(s.c);
  out.d = operand(s.d);
  out.satfinite = !s.saturate.empty() && inst.option(s.saturate).text == ".satfinite";
  if (!s.rounding.empty() && !inst.option(s.rounding).text.empty())
    out.rounding = inst.option(s.rounding).text.substr(1);
  if (!s.product.axis.empty()) out.product = inst.option(s.product.axis).text == ".and.popc" ? "and" : "xor";
  return out;
}

}  // namespace ptxcts
