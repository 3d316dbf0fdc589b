#include "judge/register_types.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "judge/claimed_shapes.hpp"

namespace ptxcts {

const char* const kTypeRulesSource =
    "PTX ISA 9.0, Fundamental Types and Operand Type Information (Type Checking Rules)";
const char* const kTypeRulesParaphrase =
    "not checked: the PTX ISA's Fundamental Types and Type Checking Rules are not in the reference text "
    "(../shared/reference); the rules as the manual states them at "
    "https://docs.nvidia.com/cuda/parallel-thread-execution/#operand-type-information, in the audit's words";

const std::vector<std::string>& probe_register_types() {
  static const std::vector<std::string> types = {".b16", ".u16", ".s16",   ".f16", ".b32", ".u32", ".s32",
                                                 ".f32", ".f16x2", ".b64", ".u64", ".s64", ".f64", ".pred"};
  return types;
}

namespace {

int register_bits(const std::string& t) {
  if (t == ".pred") return 1;
  if (t == ".f16x2") return 32;
  return std::stoi(t.substr(2));
}

// b (bit-size), s, u, f (.f16x2 a floating-point type), p (.pred).
char type_class(const std::string& t) { return t.at(1); }

bool integer(char c) { return c == 's' || c == 'u'; }

}  // namespace

TypeJudgement register_type_rule(const std::string& documented, const std::string& tried) {
  if (tried == documented) return {.rule = TypeRule::Documented, .words = ""};
  const char d = type_class(documented), t = type_class(tried);
  if (register_bits(tried) != register_bits(documented) || d == 'p' || t == 'p')
    return {.rule = TypeRule::Forbidden,
            .words = fmt::format("an operand's type must be compatible with the type its instruction gives it: a type "
                                 "of another size is not ({}-bit {} registers for {}-bit {} ones; only ld, st and "
                                 "cvt take operands wider than their type)",
                                 register_bits(tried), tried, register_bits(documented), documented)};
  if (d == 'b' || t == 'b')
    return {.rule = TypeRule::Allowed,
            .words = "bit-size types are compatible with any fundamental type having the same size"};
  if (integer(d) && integer(t))
    return {.rule = TypeRule::Allowed,
            .words = "Type Checking Rules: signed and unsigned integer types of the same size are compatible"};
  if (integer(d) != integer(t))
    return {.rule = TypeRule::Forbidden,
            .words = "Type Checking Rules: a floating-point type and a signed or unsigned integer type are not "
                     "compatible (\"invalid\")"};
  return {.rule = TypeRule::Silent, .words = ""};  // two floating-point types of one size
}

const char* to_string(TypeRule r) {
  switch (r) {
    case TypeRule::Documented: return "documented";
    case TypeRule::Allowed: return "allowed by the general rules";
    case TypeRule::Forbidden: return "forbidden";
    case TypeRule::Silent: return "not said";
  }
  return "";
}

TypeRule rule_of(const Mutation& m) {
  if (m.expected == DocClass::Valid) return TypeRule::Documented;
  if (m.expected == DocClass::Invalid) return TypeRule::Forbidden;
  return m.words.empty() ? TypeRule::Silent : TypeRule::Allowed;
}

namespace {

// The question of registers of type `tried` for the claim's operand of `inst`.
Mutation type_question(const RegisterClaim& rc, const Instance& inst, const std::string& tried) {
  OperandShape shape = instance_shape(inst);  // the form's own register counts
  shape.types[rc.operand] = tried;
  const TypeJudgement j = register_type_rule(rc.register_type, tried);
  Mutation m{.kind = kFragmentRegisterType,
             .detail = fmt::format("{{{}}} as {} registers (the row states {}: {})", rc.operand, tried,
                                   rc.register_type, to_string(j.rule)),
             .text = inst.text(),
             .shape = std::move(shape),
             .expected = j.rule == TypeRule::Documented  ? DocClass::Valid
                         : j.rule == TypeRule::Forbidden ? DocClass::Invalid
                                                         : DocClass::Undocumented,
             .words = j.words,
             .source = j.words.empty() ? "" : kTypeRulesSource,
             .words_paraphrase = j.words.empty() ? "" : kTypeRulesParaphrase};
  if (j.rule == TypeRule::Documented || j.rule == TypeRule::Forbidden) {  // the row's words first
    m.words = j.words.empty() ? rc.text : rc.text + " And: " + j.words;
    m.source = j.words.empty() ? rc.cite.source : rc.cite.source + "; " + kTypeRulesSource;
    if (!j.words.empty()) m.words_paraphrase = kTypeRulesParaphrase;
  }
  return m;
}

// Every documented form of the claim's row (its variant, its selection, a 64-bit or no address),
// as indices into the grammar, the claim's own first; those of the head's block only, and of the
// PTX ISA versions the toolkit knows.
std::vector<std::size_t> row_forms(const AuditPlan& plan, const RegisterClaim& rc, const Instance& head,
                                   const std::map<const Instance*, std::size_t>& form_of) {
  std::vector<std::size_t> out{form_of.at(&head)};
  const GrammarBlock* block = plan.grammar[out.front()].cc.combo.block;
  for (auto const& [inst, k] : form_of) {
    if (inst == &head || inst->variant().name != rc.variant || plan.grammar[k].cc.combo.block != block) continue;
    if (plan.toolkit_ptx < inst->min_ptx()) continue;  // a newer form (mma.sp::ordered_metadata on 11.8) is not known to the toolkit
    bool all = true;
    for (auto const& [axis, vals] : rc.select)
      all = all && std::find(vals.begin(), vals.end(), inst->option(axis).text) != vals.end();
    if (all) out.push_back(k);
  }
  std::sort(out.begin() + 1, out.end());
  return out;
}

// The row's questions on `form` (those of `only`, if given), each a probe on `target`.
void ask(AuditPlan& plan, const AddProbe& add, const RegisterClaim& rc, std::size_t form, const std::string& target,
         const std::vector<std::string>& types, std::optional<std::size_t> equivalence) {
  const Instance& inst = *plan.grammar[form].cc.instance;
  for (auto const& t : types) {
    Mutation m = type_question(rc, inst, t);
    ProbeText pt = probe_text(m.text, m.shape);
    OnTarget on = add(target, std::move(pt.body), m.expected == DocClass::Valid);
    plan.mutations.push_back({.of = form, .m = share(std::move(m)), .instruction = std::move(pt.instruction), .on = on,
                              .home = true, .equivalence = equivalence});
  }
}

// A member's sample of the head's types: the row's own type and kEquivalenceQuestions - 1 others, seeded.
std::vector<std::string> sampled_types(const RegisterClaim& rc, std::uint32_t seed) {
  std::vector<std::string> others;
  for (auto const& t : probe_register_types())
    if (t != rc.register_type) others.push_back(t);
  std::mt19937 rng(seed);
  std::shuffle(others.begin(), others.end(), rng);
  others.resize(std::min(others.size(), kEquivalenceQuestions - 1));
  others.insert(others.begin(), rc.register_type);
  return others;
}

}  // namespace

void plan_register_types(AuditPlan& plan, const AddProbe& add, const HomeTarget& home) {
  std::map<const Instance*, std::size_t> form_of;
  for (std::size_t k = 0; k < plan.grammar.size(); ++k)
    if (plan.grammar[k].cc.doc == DocClass::Valid && plan.grammar[k].cc.instance)
      form_of.emplace(plan.grammar[k].cc.instance, k);
  std::set<std::pair<std::size_t, std::string>> asked;  // form, operand: a row asked once
  for (auto const& rs : plan.register_claims) {
    const RegisterClaim& rc = *rs.claim;
    if (rc.register_type.empty() || !rs.instance || !rs.on || !form_of.count(rs.instance)) continue;
    const std::vector<std::size_t> forms = row_forms(plan, rc, *rs.instance, form_of);
    if (!asked.emplace(forms.front(), rc.operand).second) continue;
    FormClass fc{.part = FormPart::RegisterTypes, .block = plan.grammar[forms.front()].cc.combo.block,
                 .key = fmt::format("{} {{{}}}: {}", rc.id, rc.operand, rc.register_type), .forms = forms};
    draw_sample(fc);
    ask(plan, add, rc, forms.front(), rs.on->target, probe_register_types(), std::nullopt);
    const std::size_t ci = plan.form_classes.size();
    for (std::size_t member : fc.sampled)
      if (const std::string t = home(*plan.grammar[member].cc.instance); !t.empty())
        ask(plan, add, rc, member, t, sampled_types(rc, fc.seed ^ static_cast<std::uint32_t>(member)), ci);
    plan.form_classes.push_back(std::move(fc));
  }
}

}  // namespace ptxcts
