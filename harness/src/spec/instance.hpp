// A variant instance: one choice per qualifier plus an address width, i.e. one concrete
// instruction form such as `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16` with a 32-bit address.
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"

namespace ptxcts {

class Instance {
 public:
  Instance(const Variant& v, std::vector<const QualifierOption*> options, int address_width);

  const Variant& variant() const { return *variant_; }
  int address_width() const { return address_width_; }
  const QualifierOption& option(const std::string& axis) const;
  bool has_option(const std::string& axis, const std::string& text) const;

  std::string mnemonic() const;  // the instruction name with every qualifier filled in
  std::string id() const;        // mnemonic plus "@a32"/"@a64" (none for moves): unique per instance
  // The instruction with every qualifier filled in and its operand placeholders ({regs}, {addr},
  // {dst}, {src}) left for the emitter.
  std::string text() const;
  Bindings bindings() const;  // the variables its qualifiers set
  std::string space() const;  // "generic" or "shared"
  const FragmentLayout& layout() const;
  int registers() const;
  PtxVersion min_ptx() const;  // the variant's and every chosen qualifier's
  std::vector<const Requirement*> requirements() const;
  std::string requirement_text() const;  // e.g. "PTX ISA 7.8, >= sm_90"

 private:
  const Variant* variant_;
  std::vector<const QualifierOption*> options_;  // one per axis, in axis order
  int address_width_;
};

// Every instance of a variant: the product of its qualifiers and address widths, less exclusions.
std::vector<Instance> expand(const Variant& v);

// Whether `target` satisfies every target requirement of the instance.
bool supports(const TargetCatalog& targets, const Instance& inst, const TargetInfo& target);

}  // namespace ptxcts
