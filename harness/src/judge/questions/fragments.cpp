// The fragment sections (QuestionKind::InvalidCombinations): the sections the specs cite against
// the shapes the syntax blocks spell (judge/fragment_sections.hpp), where the two parts of the
// documents disagree.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "judge/fragment_sections.hpp"
#include "judge/type_shape_product.hpp"

namespace ptxcts {
namespace {

struct Fragments : AuditContext {
  void fragment_shapes();
  std::string said_on(const std::string& form, const std::vector<OnTarget>& on,
                      std::vector<std::pair<std::string, std::string>>& seen);
};

// What ptxas said of a form on its targets, in a line; `seen` gets the form and a target it was judged on.
std::string Fragments::said_on(const std::string& form, const std::vector<OnTarget>& on,
                               std::vector<std::pair<std::string, std::string>>& seen) {
  std::vector<std::string> ok, bad;
  std::string first_bad;
  for (auto const& o : on) {
    if (!decided(o, form)) continue;
    (verdict(o).accepted ? ok : bad).push_back(o.target);
    if (!verdict(o).accepted && first_bad.empty()) first_bad = o.target + ": " + said(verdict(o).message);
  }
  if (ok.empty() && bad.empty()) return "ptxas gave no verdict on " + form;
  seen.emplace_back(form, ok.empty() ? bad.front() : ok.front());
  if (ok.empty()) return fmt::format("ptxas rejects {} on every target ({})", form, first_bad);
  if (bad.empty()) return fmt::format("ptxas accepts {} on {} targets", form, ok.size());
  return fmt::format("ptxas accepts {} on {} of {} targets ({})", form, ok.size(), ok.size() + bad.size(), first_bad);
}

// A syntax block and its instruction's fragment sections disagreeing on the shapes
// (judge/fragment_sections.hpp): a finding citing both in their words, with what ptxas says of the
// block's forms of a shape no section names and of the examples of a shape no block spells.
void Fragments::fragment_shapes() {
  for (auto const& d : fragment_disagreements(suite.specs)) {
    std::vector<std::string> parts, cited, observed;
    std::vector<std::pair<std::string, std::string>> seen;  // form, a target it was judged on
    for (auto const& shape : d.unnamed_shapes) {
      parts.push_back(
          fmt::format("{} spells {}, which no fragment section of {} names", d.block->id, shape, d.instruction));
      std::size_t forms = 0;
      for (auto const& g : plan.grammar)
        if (g.cc.combo.block == d.block && spells_shape(g.instruction, shape) && forms++ == 0)
          observed.push_back(said_on(g.instruction, g.on, seen));
      if (forms > 1) observed.back() += fmt::format(" (the first of its {} forms)", forms);
    }
    for (auto const& s : d.unspelled) {
      parts.push_back(fmt::format("{} names {}{}, which no syntax block of {} spells", s.number, s.shape,
                                  s.types.empty() ? "" : fmt::format(" with {}", fmt::join(s.types, ", ")),
                                  d.instruction));
      cited.push_back(fmt::format("\"{}\" (manual: {}{}, its title)", s.title,
                                  s.source.substr(0, s.source.find(s.number)), s.number));
      for (auto const& e : plan.examples)
        if (const std::string& text = e.example->instructions.front();
            !e.too_new && product_instruction(text) == d.instruction && spells_section(text, s))
          observed.push_back("example " + e.example->id + ": " + said_on(text, e.on, seen));
    }
    const std::string against = fmt::format("{}", fmt::join(cited, " and "));
    const std::string words = d.block ? fmt::format("{} ({}: {}) vs {}", d.block->manual, d.block->cite.document,
                                                    d.block->cite.source, against)
                                      : against;
    Finding& f =
        findings.at(QuestionKind::InvalidCombinations,
                    "documents-disagree/fragment-sections/" + (d.block ? d.block->id : d.unspelled.front().number),
                    FindingClass::DocumentsDisagree, false, fmt::format("{}", fmt::join(parts, "; ")), words,
                    d.block ? d.block->cite.source : d.unspelled.front().source);
    const std::string all =
        observed.empty() ? "ptxas was asked no form of them" : fmt::format("{}", fmt::join(observed, "; "));
    if (seen.empty()) findings.saw(f, "", "", all);
    for (auto const& [form, target] : seen) findings.saw(f, form, target, all);
  }
}

}  // namespace

void judge_fragment_sections(AuditContext& cx) { Fragments{cx}.fragment_shapes(); }

}  // namespace ptxcts
