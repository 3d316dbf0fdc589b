#include "spec/instance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "spec/spec_fields.hpp"

namespace ptxcts {

Instance::Instance(const Variant& v, std::vector<const QualifierOption*> options, int address_width)
    : variant_(&v), options_(std::move(options)), address_width_(address_width) {}

const QualifierOption& Instance::option(const std::string& axis) const {
  for (std::size_t k = 0; k < variant_->axes.size(); ++k)
    if (variant_->axes[k].name == axis) return *options_[k];
  throw std::out_of_range("no qualifier '" + axis + "' in " + variant_->name);
}

bool Instance::has_option(const std::string& axis, const std::string& text) const {
  for (std::size_t k = 0; k < variant_->axes.size(); ++k)
    if (variant_->axes[k].name == axis) return options_[k]->text == text;
  return false;
}

std::string Instance::text() const {
  return fill_syntax(variant_->syntax, [&](const std::string& name) -> const std::string* {
    const bool operand = name == "regs" || name == "addr" || name == "dst" || name == "src" || name == "d" ||
                         name == "a" || name == "b" || name == "c" ||
                         std::any_of(variant_->operands.begin(), variant_->operands.end(),
                                     [&](auto const& o) { return o.name == name; });
    return operand ? nullptr : &option(name).text;
  });
}

std::string Instance::mnemonic() const {
  std::string full = text();
  return full.substr(0, full.find(' '));
}

std::string Instance::id() const {
  // Operands that a qualifier adds (a value written after the operands, ", ...": wmma's stride,
  // mma.sp's metadata and selector) are not in the mnemonic: name them ("+stride", "+e+1").
  std::string operands;
  for (auto const* o : options_)
    if (o->text.starts_with(", "))
      for (char ch : o->text) {
        if (ch == ',') operands += '+';
        else if (ch != ' ' && ch != '{' && ch != '}') operands += ch;
      }
  return address_width_ ? fmt::format("{}{}@a{}", mnemonic(), operands, address_width_) : mnemonic() + operands;
}

Bindings Instance::bindings() const {
  Bindings b;
  for (auto const* o : options_)
    for (auto const& [name, value] : o->set) b.set(name, value);
  return b;
}

std::string Instance::space() const {
  for (auto const* o : options_)
    if (!o->space.empty()) return o->space;
  return "generic";
}

const FragmentLayout& Instance::layout() const {
  for (auto const* o : options_)
    if (!o->fragment.empty()) return variant_->fragments.at(o->fragment);
  return variant_->fragment;
}

int Instance::registers() const { return static_cast<int>(variant_->registers.eval(bindings())); }

std::vector<const Requirement*> Instance::requirements() const {
  std::vector<const Requirement*> out{&variant_->requires_};
  for (auto const* o : options_)
    if (o->requires_.ptx || o->requires_.targets) out.push_back(&o->requires_);
  return out;
}

PtxVersion Instance::min_ptx() const {
  PtxVersion v{};
  for (auto const* r : requirements())
    if (r->ptx && v < *r->ptx) v = *r->ptx;
  return v;
}

std::string Instance::requirement_text() const {
  std::string targets;
  for (auto const* r : requirements())
    if (r->targets) targets += (targets.empty() ? "" : " and ") + r->targets->text;
  return fmt::format("PTX ISA {}, {}", min_ptx().str(), targets);
}

std::vector<Instance> expand(const Variant& v) {
  std::vector<Instance> out;
  std::vector<std::size_t> pick(v.axes.size(), 0);
  const std::vector<int> widths = v.address_widths.empty() ? std::vector<int>{0} : v.address_widths;  // 0: no address
  for (;;) {
    for (int width : widths) {
      std::vector<const QualifierOption*> opts;
      for (std::size_t k = 0; k < v.axes.size(); ++k) opts.push_back(&v.axes[k].options[pick[k]]);
      Instance inst(v, opts, width);
      bool excluded = false;
      for (auto const& e : v.exclusions) {
        bool all = true;
        for (auto const& [axis, text] : e.when)
          all = all && (axis == "address_width" ? std::to_string(width) == text : inst.has_option(axis, text));
        excluded = excluded || all;
      }
      if (!excluded) out.push_back(std::move(inst));
    }
    std::size_t k = 0;
    while (k < pick.size() && ++pick[k] == v.axes[k].options.size()) pick[k++] = 0;
    if (k == pick.size()) break;
  }
  return out;
}

bool supports(const TargetCatalog& targets, const Instance& inst, const TargetInfo& target) {
  for (auto const* r : inst.requirements())
    if (r->targets && !targets.contains(*r->targets, target)) return false;
  return true;
}

}  // namespace ptxcts
