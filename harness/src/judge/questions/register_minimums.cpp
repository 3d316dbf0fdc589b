// The register minimums the documents state (QuestionKind::RegisterCounts): each variant's first form
// compiled in an entry allowed one register fewer than the minimum (ptxas must refuse it, for the
// register limit) and at the minimum (the control: accepted, so that the refusal is the limit's).
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ptxcts {
namespace {

struct RegisterMinimums : AuditContext {
  void minimums();
  // One variant's two probes: "" where they confirm the minimum, else what they showed; `verdict` the worst so far.
  std::string judge_variant(const RegisterMinimumSubject& s, Verdict& worst, int& judged);
};

// The message ptxas refuses a kernel with for a register limit it cannot meet (CUDA 13.0: "... cannot be
// compiled with specified register target constraints").
bool limit_message(const std::string& message) { return message.find("register") != std::string::npos; }

std::string RegisterMinimums::judge_variant(const RegisterMinimumSubject& s, Verdict& worst, int& judged) {
  const int n = s.minimum->registers;
  if (!s.below || !s.at) return fmt::format("{}: no form of it on a target of this toolkit", s.variant);
  if (!decided(*s.below, "register minimum " + s.minimum->id) || !decided(*s.at, "register minimum " + s.minimum->id))
    return fmt::format("{}: ptxas gave no verdict", s.variant);
  const ProbeVerdict &below = verdict(*s.below), &at = verdict(*s.at);
  if (!at.accepted)
    return fmt::format("{} on {}: refused at {} registers too, not checkable ({})", s.variant, s.at->target, n,
                       accepted_or(at));
  if (below.accepted) {
    worst = Verdict::Contradicted;
    ++judged;
    Finding& f = findings.at(QuestionKind::RegisterCounts, "document-error/register-minimum/" + s.minimum->id,
                             FindingClass::DocumentError, false, s.minimum->id, s.minimum->text,
                             s.minimum->cite.source);
    findings.saw(f, s.instruction + fmt::format(" (.maxnreg {})", n - 1), s.below->target, "accepted");
    return fmt::format("{} on {}: compiled with .maxnreg {}", s.variant, s.below->target, n - 1);
  }
  if (!limit_message(below.message))
    return fmt::format("{} on {}: refused at .maxnreg {}, not for the register limit ({})", s.variant,
                       s.below->target, n - 1, accepted_or(below));
  ++judged;
  if (worst == Verdict::NotCheckable) worst = Verdict::Confirmed;
  return "";
}

void RegisterMinimums::minimums() {
  for (auto const& rm : suite.specs.register_minimums) {
    StatementVerdict st{.id = rm.id, .kind = "register-minimum", .family = rm.family, .words = rm.text,
                        .source = rm.cite.source, .verdict = Verdict::NotCheckable, .evidence = "", .forms = 0};
    std::vector<std::string> confirmed, other;
    int judged = 0;
    for (auto const& s : plan.register_minimums) {
      if (s.minimum != &rm) continue;
      std::string said = judge_variant(s, st.verdict, judged);
      if (said.empty()) confirmed.push_back(fmt::format("{} on {}", s.variant, s.below->target));
      else other.push_back(std::move(said));
    }
    st.forms = static_cast<std::size_t>(judged);
    if (!confirmed.empty())
      st.evidence = fmt::format("refused at .maxnreg {} for the register limit, compiled at .maxnreg {}: {}",
                                rm.registers - 1, rm.registers, fmt::join(confirmed, ", "));
    if (!other.empty()) st.evidence += (st.evidence.empty() ? "" : "; ") + fmt::format("{}", fmt::join(other, "; "));
    audit.statements.push_back(std::move(st));
  }
}

}  // namespace

void judge_register_minimums(AuditContext& cx) { RegisterMinimums{cx}.minimums(); }

}  // namespace ptxcts
