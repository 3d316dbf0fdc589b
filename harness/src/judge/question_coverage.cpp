#include "judge/question_coverage.hpp"

#include "judge/audit.hpp"
#include "judge/type_shape_product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ptxcts {

std::vector<QuestionCount> question_counts(const AuditPlan& plan) {
  using enum QuestionKind;
  std::vector<QuestionCount> counts;
  for (auto const& k : question_kinds()) counts.push_back({.kind = k.kind, .questions = 0, .probes = 0, .findings = 0});
  auto ask = [&](QuestionKind kind, std::size_t n) {
    QuestionCount& c = counts[static_cast<std::size_t>(kind)];
    c.questions += n;
    c.probes += n;
  };
  for (auto const& g : plan.grammar) ask(g.cc.doc == DocClass::Valid ? GrammarForms : InvalidCombinations, g.on.size());
  for (auto const& m : plan.mutations) ask(m.question(), 1);
  for (auto const& e : plan.examples) ask(ManualExamples, e.on.size());
  for (auto const& r : plan.register_claims) ask(RegisterCounts, r.on ? 1 : 0);
  for (auto const& r : plan.register_minimums) ask(RegisterCounts, (r.below ? 1 : 0) + (r.at ? 1 : 0));
  for (auto const& v : plan.versions) ask(PtxVersions, (v.at ? 1 : 0) + (v.below ? 1 : 0));
  for (auto const& t : plan.target_versions) ask(PtxVersions, (t.at ? 1 : 0) + (t.below ? 1 : 0));
  if (plan.toolkit_version) ask(PtxVersions, 2);
  for (auto const& f : plan.forms) ask(HandListedForms, f.on ? 1 : 0);
  return counts;
}

namespace {

struct BlockCoverageTally {
  std::size_t questions = 0, classes = 0;
  std::set<std::size_t> asked, sampled, covered;
  // type x shape: questions in the registers of the asked type's own row (count and type), of its
  // register type only (a row at another shape), and of none (judge/type_shape_product.hpp)
  std::size_t by_row = 0, by_row_type = 0, no_row = 0;
  void rows_of(const MutationSubject& m) {
    if (m.question() != QuestionKind::TypeShape) return;
    const std::string& d = m.m->detail;
    by_row += d.find("as its row") != std::string::npos;
    by_row_type += d.find("in the register type of row") != std::string::npos;
    no_row += d.find(kNoFragmentRow) != std::string::npos;
  }
  // Where the asked types had no row of their own, what the questions used instead.
  std::string rows_how() const {
    if (by_row + by_row_type + no_row == 0) return "";
    return fmt::format("; besides the documented form's registers, {} questions in the asked type's own fragment-table "
                       "row's registers (count and register type), {} in the register type of its row at another "
                       "shape (the count by the fragment's size), {} where the asked type has no row on this operand "
                       "(the count by the fragment's size, the representative's register type)",
                       by_row, by_row_type, no_row);
  }
};

std::string how_covered(const BlockCoverage& c) {
  std::string how = c.asked >= c.forms ? std::string("every form") : fmt::format("{} of {} forms", c.asked, c.forms);
  if (c.by_class == 0) return c.asked >= c.forms ? how : how + " (the block's other forms are not asked this kind)";
  return how + fmt::format("; its wider questions in full on the heads of its {} classes, the other {} forms by "
                           "their class's checked equivalence, {} of them sampled (seed {} and the class's key, at "
                           "most {} questions each)",
                           c.classes, c.by_class, c.sampled, kEquivalenceSeed, kEquivalenceQuestions);
}

}  // namespace

std::vector<BlockCoverage> block_coverage(const AuditPlan& plan) {
  std::map<const GrammarBlock*, std::size_t> forms;
  for (auto const& g : plan.grammar) forms[g.cc.combo.block] += g.cc.doc == DocClass::Valid;
  std::map<std::pair<const GrammarBlock*, QuestionKind>, BlockCoverageTally> tally;  // by pointer: cheap per question
  auto block_of = [&](std::size_t k) { return plan.grammar[k].cc.combo.block; };
  for (auto const& g : plan.grammar)
    if (g.cc.doc == DocClass::Valid) tally[{g.cc.combo.block, QuestionKind::GrammarForms}].questions += g.on.size();
  for (std::size_t k = 0; k < plan.grammar.size(); ++k)
    if (plan.grammar[k].cc.doc == DocClass::Valid) tally[{block_of(k), QuestionKind::GrammarForms}].asked.insert(k);
  for (auto const& m : plan.mutations) {
    if (!m.home) continue;
    BlockCoverageTally& t = tally[{block_of(m.of), m.question()}];
    ++t.questions;
    t.rows_of(m);
    (m.equivalence ? t.sampled : t.asked).insert(m.of);
  }
  std::map<std::pair<std::size_t, FormPart>, std::set<QuestionKind>> parts;  // form, part -> kinds it asked
  for (auto const& m : plan.mutations)
    if (auto part = form_part_of(m.m->kind); m.home && !m.equivalence && part) parts[{m.of, *part}].insert(m.question());
  for (auto const& fc : plan.form_classes)  // the kinds the head asked of the class's part
    for (QuestionKind q : parts[{fc.forms.front(), fc.part}]) {
      BlockCoverageTally& t = tally[{fc.block, q}];
      t.classes += fc.forms.size() > 1;
      t.covered.insert(fc.forms.begin() + 1, fc.forms.end());
    }
  std::vector<BlockCoverage> out;
  for (auto const& [key, t] : tally) {
    BlockCoverage c{.block = key.first->id, .kind = key.second, .questions = t.questions, .forms = forms[key.first],
                    .asked = t.asked.size(), .classes = t.classes, .by_class = t.covered.size(),
                    .sampled = t.sampled.size(), .how = ""};
    c.how = how_covered(c) + t.rows_how();
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(),
            [](auto const& a, auto const& b) { return std::tie(a.block, a.kind) < std::tie(b.block, b.kind); });
  return out;
}

void count_findings(std::vector<QuestionCount>& counts, const std::vector<Finding>& findings) {
  for (auto const& f : findings)
    for (auto& c : counts)
      if (c.kind == f.question) ++c.findings;
}

}  // namespace ptxcts
