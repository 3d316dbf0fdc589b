// Register types per fragment table row (QuestionKind::FragmentRegisterTypes): each row of the
// documents' fragment tables that the specs give with its register type (spec RegisterClaim's
// `register_type`: "A vector expression containing two .f16x2 registers" -> .f16x2) is asked on its
// form (the claim's, with the form's own register count) in registers of the row's type and of
// every other register type of every width; the row's other forms are a class whose equivalence
// is checked on a seeded sample (judge/form_classes.hpp, FormPart::RegisterTypes). What the
// documents make of a type: the row's own is documented; another is allowed, forbidden or left
// open by PTX's type-checking rules (`register_type_rule`). Only a documented type refused or a
// forbidden one accepted is a finding (judge/questions/register_types.cpp); the rest is observed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "judge/audit_plan.hpp"

namespace ptxcts {

// The mutation kind of these questions (judge/negative_space.hpp's Mutation::kind).
inline constexpr const char* kFragmentRegisterType = "fragment-register-type";

// The register types tried: PTX's fundamental types of 16, 32 and 64 bits that a register may be
// declared with, .f16x2 and .pred. Left out: .bf16 and .bf16x2, which ptxas takes as no register's
// type at all (a syntax error at the declaration, before the instruction: CUDA 13.0's ptxas, "Parsing
// error near '.bf16'"), and 8-bit types, which no register has.
const std::vector<std::string>& probe_register_types();

// What the documents make of registers of type `tried` for an operand a fragment table row says is
// of type `documented`.
enum class TypeRule {
  Documented,  // the row's own type
  Allowed,     // another type the general rules allow (a bit-size type of the same size; .s/.u alike)
  Forbidden,   // neither the row nor the general rules allow it (another size; .f with .s or .u)
  Silent,      // the documents do not say (two floating-point types of one size: .f32 for .f16x2)
};
struct TypeJudgement {
  TypeRule rule = TypeRule::Silent;
  std::string words;  // the general rule's words (as paraphrased: see kTypeRulesParaphrase)
};
TypeJudgement register_type_rule(const std::string& documented, const std::string& tried);
const char* to_string(TypeRule r);

// Where the general rules are, and why their words are not checked verbatim.
extern const char* const kTypeRulesSource;
extern const char* const kTypeRulesParaphrase;

// The rule a question of this kind was planned with, read back from its mutation's detail.
TypeRule rule_of(const Mutation& m);

// Adds the questions to the plan: for each register claim with a register type whose form the
// grammar spells, its form asked every type on the claim's target, and a seeded sample of the row's
// other forms asked a seeded sample of those questions (a class appended to plan.form_classes).
// `add`: adds a probe (target, body, whether the documents say ptxas accepts it) and says where;
// `home`: the first target of this toolkit supporting a form ("" : none), each form asked on its own
// (a row's forms may differ: .and of the single-bit row needs sm_80, .xor sm_75).
using AddProbe = std::function<OnTarget(const std::string& target, std::string body, bool expected)>;
using HomeTarget = std::function<std::string(const Instance&)>;
void plan_register_types(AuditPlan& plan, const AddProbe& add, const HomeTarget& home);

}  // namespace ptxcts
