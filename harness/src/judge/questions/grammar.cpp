// The grammar: every combination of every syntax block on every target (QuestionKind::GrammarForms)
// and the rules that forbid some of them, the combinations no document gives and those two documents
// see differently (QuestionKind::InvalidCombinations), judged into statements and findings.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

namespace ptxcts {
namespace {

struct Grammar : AuditContext {
  std::map<const GrammarRule*, std::pair<std::size_t, std::size_t>> rule_tally{};  // forms forbidden, accepted
  std::map<std::pair<std::string, DocClass>, GrammarCount> counts{};
  std::map<std::string, std::pair<std::size_t, std::size_t>> disagree{};  // block -> forms, accepted somewhere

  void rules_and_blocks();
  std::vector<std::string> count_form(const GrammarSubject& g);
  void forbidden(const GrammarSubject& g, const GrammarRule& r, const std::vector<std::string>& accepted_on);
  void unencoded(const GrammarSubject& g, const std::vector<std::string>& accepted_on);
  void rule_statements();
  void edge_tally(const GrammarRule& r, std::size_t& forms, std::size_t& accepted);
  void block_statements();
};

void Grammar::rules_and_blocks() {
  for (auto const& g : plan.grammar) {
    const std::vector<std::string> accepted_on = count_form(g);
    for (auto const* r : g.cc.forbidden_by) forbidden(g, *r, accepted_on);
    if (g.cc.doc == DocClass::Unencoded) unencoded(g, accepted_on);
    if (g.cc.doc == DocClass::Undocumented && !accepted_on.empty()) {
      const GrammarBlock& b = *g.cc.combo.block;
      Finding& f = findings.at(QuestionKind::InvalidCombinations, "toolkit-accepts-undocumented/syntax/" + b.id,
                               FindingClass::ToolkitAccepts, true, b.id,
                               "no document gives these combinations of " + b.manual, b.cite.source);
      for (auto const& t : accepted_on) findings.saw(f, g.instruction, t, "accepted");
    }
  }
  for (auto& [k, c] : counts) audit.grammar.push_back(std::move(c));
  rule_statements();
  block_statements();
}

// A form in its block's count; the targets ptxas accepts it on.
std::vector<std::string> Grammar::count_form(const GrammarSubject& g) {
  const GrammarBlock& b = *g.cc.combo.block;
  GrammarCount& c = counts[{b.id, g.cc.doc}];
  c.block = b.id;
  c.family = b.family;
  c.document = b.cite.document;
  c.doc = g.cc.doc;
  ++c.forms;
  std::vector<std::string> accepted_on;
  for (auto const& on : g.on)
    if (decided(on, g.cc.combo.text) && verdict(on).accepted) {
      ++c.accepted[on.target];
      accepted_on.push_back(on.target);
    }
  return accepted_on;
}

// A form a rule forbids: accepted against a rule of the block's own document, the toolkit takes
// what it forbids; against another document's rule (the block's document spells the form), that
// document errs. And where one document (or one section of it) spells what another forbids, the
// documents disagree.
void Grammar::forbidden(const GrammarSubject& g, const GrammarRule& r, const std::vector<std::string>& accepted_on) {
  const GrammarBlock& b = *g.cc.combo.block;
  auto& [forms, accepted] = rule_tally[&r];
  ++forms;
  accepted += !accepted_on.empty();
  if (!accepted_on.empty()) {
    const bool own = r.cite.document == b.cite.document;
    Finding& f = findings.at(
        QuestionKind::InvalidCombinations, (own ? "toolkit-accepts/rule/" : "document-error/rule/") + r.id,
        own ? FindingClass::ToolkitAccepts : FindingClass::DocumentError, false, r.id, r.text, r.cite.source);
    for (auto const& t : accepted_on) findings.saw(f, g.instruction, t, "accepted");
  }
  if (r.cite.document == b.cite.document && r.other_section.empty()) return;
  Finding& f =
      findings.at(QuestionKind::InvalidCombinations, fmt::format("documents-disagree/syntax/{}/{}", b.id, r.id),
                  FindingClass::DocumentsDisagree, false, b.id + " vs " + r.id,
                  fmt::format("{} ({}: {}) vs \"{}\" ({}: {})", b.manual, b.cite.document, b.cite.source, r.text,
                              r.cite.document, r.cite.source),
                  b.cite.source);
  findings.saw(f, g.instruction, accepted_on.empty() ? "" : accepted_on.front(),
               accepted_on.empty() ? "ptxas rejects it on every target"
                                   : fmt::format("ptxas accepts it on {}", fmt::join(accepted_on, ", ")));
  auto& [n, acc] = disagree[b.id];
  ++n;
  acc += !accepted_on.empty();
}

// A rule bounded in PTX ISA versions is asked at the edges of its range too (audit_plan's
// rule_version_edges): the forms it forbids there, and those of them ptxas accepts.
void Grammar::edge_tally(const GrammarRule& r, std::size_t& forms, std::size_t& accepted) {
  if (!r.ptx.bounded()) return;
  const std::string tail = ", rule " + r.id;
  for (auto const& ms : plan.mutations) {
    const std::string& d = ms.m->detail;
    if (ms.m->kind != "rule-version" || ms.m->expected != DocClass::Invalid || d.size() < tail.size() ||
        d.compare(d.size() - tail.size(), tail.size(), tail) != 0 || !verdict(ms.on).error.empty())
      continue;
    ++forms;
    accepted += verdict(ms.on).accepted;
  }
}

// Each rule a statement: confirmed where ptxas rejects every form it forbids (at the toolkit's PTX
// ISA version, and at the edges of a bounded rule's range).
void Grammar::rule_statements() {
  for (auto const& r : suite.specs.rules) {
    auto [forms, accepted] = rule_tally[&r];
    edge_tally(r, forms, accepted);
    StatementVerdict s{.id = r.id,
                       .kind = "rule",
                       .family = r.family,
                       .words = r.text,
                       .source = r.cite.source,
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .forms = forms};
    if (forms == 0) s.evidence = "no combination of the grammar falls under it";
    else if (accepted) {
      s.verdict = Verdict::Contradicted;
      s.evidence = fmt::format("ptxas {} accepts {} of the {} forms it forbids", plan.ptxas_version, accepted, forms);
    } else {
      s.verdict = Verdict::Confirmed;
      s.evidence = fmt::format("ptxas {} rejects all {} forms it forbids, on every target", plan.ptxas_version, forms);
    }
    audit.statements.push_back(std::move(s));
  }
}

// Each syntax block a statement: contradicted where another document's rule forbids some of its
// combinations, confirmed where some are documented forms.
void Grammar::block_statements() {
  for (auto const& b : suite.specs.grammar) {
    std::size_t valid = 0;
    for (auto const& c : audit.grammar)
      if (c.block == b.id && c.doc == DocClass::Valid) valid = c.forms;
    StatementVerdict s{.id = b.id,
                       .kind = "syntax",
                       .family = b.family,
                       .words = b.manual,
                       .source = b.cite.source,
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .forms = b.product()};
    auto d = disagree.find(b.id);
    if (d != disagree.end()) {
      s.verdict = Verdict::Contradicted;
      s.evidence = fmt::format(
          "{} of its {} combinations are forbidden by another document's rule ({} of them "
          "accepted by ptxas somewhere)",
          d->second.first, b.product(), d->second.second);
    } else if (valid) {
      s.verdict = Verdict::Confirmed;
      s.evidence = fmt::format(
          "{} of its {} combinations are documented forms (judged under their variants' "
          "requirements)",
          valid, b.product());
    } else {
      s.evidence = "none of its combinations is a documented form";
    }
    audit.statements.push_back(std::move(s));
  }
}

// A combination the document spells (no rule of its own forbids it) that no variant encodes: its
// requirements are not in the specs, so it is judged only where ptxas refuses it on every target.
void Grammar::unencoded(const GrammarSubject& g, const std::vector<std::string>& accepted_on) {
  if (!accepted_on.empty()) return;
  const GrammarBlock& b = *g.cc.combo.block;
  std::string newest;  // the newest target's message: the likeliest to know what the form spells
  for (auto it = g.on.rbegin(); it != g.on.rend() && newest.empty(); ++it)
    if (verdict(*it).error.empty()) newest = it->target + ": " + said(verdict(*it).message);
  if (newest.empty()) return;  // ptxas gave no verdict anywhere
  Finding& f = findings.at(QuestionKind::GrammarForms, "toolkit-rejects/syntax/" + b.id, FindingClass::ToolkitRejects,
                           false, b.id, b.manual, b.cite.source);
  for (auto const& on : g.on)
    if (verdict(on).error.empty()) findings.saw(f, g.instruction, on.target, "rejected on every target; " + newest);
}

}  // namespace

void judge_grammar(AuditContext& cx) { Grammar{cx}.rules_and_blocks(); }

}  // namespace ptxcts
