#include "judge/form_classes.hpp"

#include <algorithm>
#include <map>
#include <random>


namespace ptxcts {
namespace {

// FNV-1a: a seed that is the same on every platform (std::hash is not).
std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

// The registers of each operand and their types ("{d}: 4 .b32; ...").
std::string registers_key(const Combination& c) {
  const OperandShape s = documented_shape(c);
  std::string key;
  for (auto const& [operand, n] : s.registers) {
    auto t = s.types.find(operand);
    key += "{" + operand + "}: " + std::to_string(n) + (t == s.types.end() ? "" : " " + t->second) + "; ";
  }
  return key;
}

// What the forms of a class share, by part: the block (values); the operands as written after the
// mnemonic and their registers (operand forms and address modes: an immediate for a vector's last
// element writes "{1}" for one register and "{%im0, 1}" for two, which ptxas takes apart); the
// registers of each operand and their types (register counts).
std::string class_key(FormPart part, const Combination& c) {
  if (part == FormPart::Values) return "";
  if (part == FormPart::Operands) return c.text.substr(c.text.find(' ') + 1) + " " + registers_key(c);
  return registers_key(c);
}

}  // namespace

void draw_sample(FormClass& fc) {
  fc.seed = kEquivalenceSeed ^ fnv1a(fc.block->id + "/" + form_part_id(fc.part) + "/" + fc.key);
  std::vector<std::size_t> members(fc.forms.begin() + 1, fc.forms.end());
  std::mt19937 rng(fc.seed);
  std::shuffle(members.begin(), members.end(), rng);
  members.resize(std::min(members.size(), kEquivalenceForms));
  std::sort(members.begin(), members.end());
  fc.sampled = std::move(members);
}

const char* form_part_id(FormPart p) {
  switch (p) {
    case FormPart::Values: return "values";
    case FormPart::Operands: return "operands";
    case FormPart::Registers: return "registers";
    case FormPart::RegisterTypes: return "register-types";
  }
  return "";
}

const char* form_part_shares(FormPart p) {
  switch (p) {
    case FormPart::Values: return "the same syntax block";
    case FormPart::Operands: return "the same operands and registers";
    case FormPart::Registers: return "the same registers";
    case FormPart::RegisterTypes: return "the same fragment table row";
  }
  return "";
}

std::optional<FormPart> form_part_of(const std::string& kind) {
  if (kind == "value" || kind == "conflict") return FormPart::Values;
  if (kind == "operand-form" || kind == "address-mode" || kind == "address-width") return FormPart::Operands;
  if (kind == "registers") return FormPart::Registers;
  if (kind == "fragment-register-type") return FormPart::RegisterTypes;
  return std::nullopt;
}

std::vector<FormClass> form_classes(const std::vector<const ClassifiedCombination*>& grammar,
                                    const std::vector<std::size_t>& valid) {
  std::vector<FormClass> out;
  for (FormPart part : {FormPart::Values, FormPart::Operands, FormPart::Registers}) {
    std::map<std::pair<const GrammarBlock*, std::string>, std::size_t> index;
    for (std::size_t k : valid) {
      const Combination& c = grammar[k]->combo;
      auto [at, fresh] = index.emplace(std::pair{c.block, class_key(part, c)}, out.size());
      if (fresh) out.push_back({.part = part, .block = c.block, .key = at->first.second, .forms = {}});
      out[at->second].forms.push_back(k);
    }
  }
  for (auto& fc : out) draw_sample(fc);
  return out;
}

WideParts parts_headed(const std::vector<FormClass>& classes, std::size_t form) {
  WideParts w;
  for (auto const& fc : classes)
    if (fc.forms.front() == form) {
      w.values = w.values || fc.part == FormPart::Values;
      w.operands = w.operands || fc.part == FormPart::Operands;
      w.registers = w.registers || fc.part == FormPart::Registers;
    }
  return w;
}

std::vector<Mutation> equivalence_sample(const FormClass& fc, std::size_t member, std::vector<Mutation> mutations,
                                         const std::set<std::string>& head_asked) {
  std::vector<Mutation> mine;
  for (auto& m : mutations)
    if (form_part_of(m.kind) == fc.part && head_asked.count(m.kind + "|" + m.detail)) mine.push_back(std::move(m));
  std::mt19937 rng(fc.seed ^ static_cast<std::uint32_t>(member));
  std::shuffle(mine.begin(), mine.end(), rng);
  mine.resize(std::min(mine.size(), kEquivalenceQuestions));
  return mine;
}

}  // namespace ptxcts
