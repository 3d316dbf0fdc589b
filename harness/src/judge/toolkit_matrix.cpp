#include "judge/toolkit_matrix.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ptxcts {
namespace {

std::tuple<int, int, int> release_key(const std::string& v) {
  int a = 0, b = 0, c = 0;
  std::sscanf(v.c_str(), "%d.%d.%d", &a, &b, &c);
  return {a, b, c};
}

std::string joined(const std::vector<std::string>& v) {
  return v.empty() ? "-" : fmt::format("{}", fmt::join(v, ", "));
}

// A hand-listed form's state on one toolkit.
std::string form_state(const AuditSummary::FormRow& f) {
  if (!f.assembled)
    return f.evidence.find("not known to this toolkit") != std::string::npos ? f.target + " not known to this toolkit"
                                                                             : "not assembled";
  return fmt::format("{} ({})", f.accepted ? "accepted" : "rejected", f.verdict);
}

}  // namespace

std::size_t PairChanges::count(const std::string& kind) const {
  return static_cast<std::size_t>(
      std::count_if(changes.begin(), changes.end(), [&](const ToolkitChange& c) { return c.kind == kind; }));
}

std::string message_gist(const std::string& message) {
  static const std::regex where(R"(ptxas [^,\n]*, line \d+; )"), target(R"((^|\s)sm_\d+[af]?: )"),
      blanks(R"( {2,})"), how_many(R"(on \d+ of \d+ targets|on \d+ targets)");
  std::string s = message.substr(0, message.find('\n'));
  s = std::regex_replace(s, where, "");
  s = std::regex_replace(s, how_many, "on some targets");  // the count follows the targets a toolkit knows
  s = std::regex_replace(s, target, "$1");
  return std::regex_replace(s, blanks, " ");
}

namespace {

void add_change(PairChanges& out, std::string kind, std::string what, std::string before, std::string after) {
  out.changes.push_back(
      {.kind = std::move(kind), .what = std::move(what), .before = std::move(before), .after = std::move(after)});
}

bool has(const std::vector<std::string>& v, const std::string& t) {
  return std::find(v.begin(), v.end(), t) != v.end();
}

// The PTX ISA version the toolkits speak, and the targets ptxas knows.
void target_changes(PairChanges& out, const AuditSummary& a, const AuditSummary& b) {
  if (a.ptx_isa != b.ptx_isa) add_change(out, "ptx isa", "newest PTX ISA version", a.ptx_isa, b.ptx_isa);
  for (auto const& t : b.ptxas_targets)
    if (!has(a.ptxas_targets, t))
      add_change(out, "target added", t, "not known",
                 has(b.targets, t) ? "known" : "known (not among the suite's targets)");
  for (auto const& t : a.ptxas_targets)
    if (!has(b.ptxas_targets, t))
      add_change(out, "target removed", t, has(a.targets, t) ? "known" : "known (not among the suite's targets)",
                 "not known");
}

// One form on the targets both toolkits know: where b accepts what a rejected (first) and the reverse.
std::pair<std::vector<std::string>, std::vector<std::string>> flipped_targets(const AuditSummary& a,
                                                                              const AuditSummary::GrammarRow& ga,
                                                                              const AuditSummary& b,
                                                                              const AuditSummary::GrammarRow& g) {
  std::vector<std::string> accepted, rejected;
  for (std::size_t k = 0; k < b.targets.size() && k < g.verdicts.size(); ++k) {
    auto at = std::find(a.targets.begin(), a.targets.end(), b.targets[k]);
    if (at == a.targets.end()) continue;
    const auto ka = static_cast<std::size_t>(at - a.targets.begin());
    if (ka >= ga.verdicts.size()) continue;
    const char before = ga.verdicts[ka], after = g.verdicts[k];
    if (before == '-' && after == '+') accepted.push_back(b.targets[k]);
    if (before == '+' && after == '-') rejected.push_back(b.targets[k]);
  }
  return {accepted, rejected};
}

// The grammar, form by form, on every target both know; then the rejection messages that changed.
void grammar_changes(PairChanges& out, const AuditSummary& a, const AuditSummary& b) {
  std::map<std::pair<std::string, std::string>, const AuditSummary::GrammarRow*> in_a;
  for (auto const& g : a.grammar) in_a[{g.block, g.instruction}] = &g;
  std::map<std::pair<std::string, std::string>, std::pair<std::size_t, std::string>> messages;  // gists -> forms, e.g.
  for (auto const& g : b.grammar) {
    auto it = in_a.find({g.block, g.instruction});
    if (it == in_a.end()) continue;
    const AuditSummary::GrammarRow& ga = *it->second;
    auto [accepted, rejected] = flipped_targets(a, ga, b, g);
    if (!accepted.empty())
      add_change(out, "form newly accepted", g.instruction, "rejected (" + g.cls + ")",
                 "accepted on " + joined(accepted));
    if (!rejected.empty())
      add_change(out, "form newly rejected", g.instruction, "accepted (" + g.cls + ")",
                 "rejected on " + joined(rejected));
    if (!ga.first_rejection.empty() && !g.first_rejection.empty()) {
      std::string ma = message_gist(ga.first_rejection), mb = message_gist(g.first_rejection);
      if (ma != mb) {
        auto& [n, example] = messages[{ma, mb}];
        if (n++ == 0) example = g.instruction;
      }
    }
  }
  for (auto const& [gists, seen] : messages)
    add_change(out, "message changed",
               fmt::format("{} form{}, e.g. {}", seen.first, seen.first == 1 ? "" : "s", seen.second), gists.first,
               gists.second);
}

// The negative space, per block and kind of mutation.
void negative_space_changes(PairChanges& out, const AuditSummary& a, const AuditSummary& b) {
  std::map<std::tuple<std::string, std::string, std::string>, const AuditSummary::MutationCountRow*> ns_a;
  for (auto const& m : a.negative_space) ns_a[{m.block, m.kind, m.documents}] = &m;
  for (auto const& m : b.negative_space) {
    auto it = ns_a.find({m.block, m.kind, m.documents});
    if (it == ns_a.end() || it->second->accepted == m.accepted) continue;
    const auto& ma = *it->second;
    add_change(out, m.accepted > ma.accepted ? "form newly accepted" : "form newly rejected",
               fmt::format("negative space of {}: {} (the documents: {})", m.block, m.kind, m.documents),
               fmt::format("{} of {} accepted", ma.accepted, ma.forms),
               fmt::format("{} of {} accepted", m.accepted, m.forms));
  }
}

std::string finding_text(const AuditSummary::FindingRow& f) {
  return fmt::format("{} form{}{}: {}", f.forms, f.forms == 1 ? "" : "s", f.fails ? ", fails the audit" : "",
                     message_gist(f.observed));
}

// Findings, by id: those that appeared, those fixed, those that changed.
void finding_changes(PairChanges& out, const AuditSummary& a, const AuditSummary& b) {
  std::map<std::string, const AuditSummary::FindingRow*> fa, fb;
  for (auto const& f : a.findings) fa[f.id] = &f;
  for (auto const& f : b.findings) fb[f.id] = &f;
  for (auto const& f : b.findings)
    if (!fa.count(f.id)) add_change(out, "finding appeared", f.id, "(none)", finding_text(f));
  for (auto const& f : a.findings)
    if (!fb.count(f.id)) add_change(out, "finding fixed", f.id, finding_text(f), "(none)");
  for (auto const& f : b.findings)
    if (auto it = fa.find(f.id); it != fa.end() && finding_text(*it->second) != finding_text(f))
      add_change(out, "finding changed", f.id, finding_text(*it->second), finding_text(f));
}

// Statements or requirements, by id: those whose verdict changed, appeared or went.
void verdict_changes(PairChanges& out, const std::vector<AuditSummary::VerdictRow>& va,
                     const std::vector<AuditSummary::VerdictRow>& vb, const std::string& kind) {
  std::map<std::string, const AuditSummary::VerdictRow*> ia;
  for (auto const& r : va) ia[r.kind + " " + r.id] = &r;
  std::set<std::string> seen;
  for (auto const& r : vb) {
    seen.insert(r.kind + " " + r.id);
    auto it = ia.find(r.kind + " " + r.id);
    if (it == ia.end()) add_change(out, kind, r.kind + " " + r.id, "(absent)", r.verdict + ": " + r.evidence);
    else if (it->second->verdict != r.verdict)
      add_change(out, kind, r.kind + " " + r.id, it->second->verdict + ": " + it->second->evidence,
                 r.verdict + ": " + r.evidence);
  }
  for (auto const& r : va)
    if (!seen.count(r.kind + " " + r.id))
      add_change(out, kind, r.kind + " " + r.id, r.verdict + ": " + r.evidence, "(absent)");
}

// The hand-listed forms whose state changed.
void form_changes(PairChanges& out, const AuditSummary& a, const AuditSummary& b) {
  std::map<std::string, const AuditSummary::FormRow*> forms_a;
  for (auto const& f : a.forms) forms_a[f.name] = &f;
  for (auto const& f : b.forms)
    if (auto it = forms_a.find(f.name); it != forms_a.end() && form_state(*it->second) != form_state(f))
      add_change(out, "hand-listed form", f.name + " (" + f.instruction + ")", form_state(*it->second), form_state(f));
}

}  // namespace

PairChanges compare_audits(const AuditSummary& a, const AuditSummary& b) {
  PairChanges out{.from = a.cuda_release, .to = b.cuda_release, .changes = {}};
  target_changes(out, a, b);
  grammar_changes(out, a, b);
  negative_space_changes(out, a, b);
  finding_changes(out, a, b);
  verdict_changes(out, a.statements, b.statements, "statement verdict");
  verdict_changes(out, a.requirements, b.requirements, "requirement verdict");
  form_changes(out, a, b);
  // In the kinds' order, stable within a kind.
  std::stable_sort(out.changes.begin(), out.changes.end(), [](const ToolkitChange& x, const ToolkitChange& y) {
    auto rank = [](const std::string& k) {
      return std::find(kChangeKinds.begin(), kChangeKinds.end(), k) - kChangeKinds.begin();
    };
    return rank(x.kind) < rank(y.kind);
  });
  return out;
}

ToolkitMatrix build_matrix(std::vector<AuditSummary> audits) {
  std::stable_sort(audits.begin(), audits.end(), [](const AuditSummary& x, const AuditSummary& y) {
    return release_key(x.ptxas_version) < release_key(y.ptxas_version);
  });
  for (std::size_t k = 1; k < audits.size(); ++k)
    if (audits[k].cuda_release == audits[k - 1].cuda_release)
      throw std::invalid_argument(fmt::format("two audit reports of CUDA {}: {} and {}; expected one per release",
                                              audits[k].cuda_release, audits[k - 1].file, audits[k].file));
  ToolkitMatrix m;
  m.columns = std::move(audits);
  for (std::size_t k = 1; k < m.columns.size(); ++k) m.steps.push_back(compare_audits(m.columns[k - 1], m.columns[k]));
  return m;
}

}  // namespace ptxcts
