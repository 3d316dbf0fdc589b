// The register counts the documents state (QuestionKind::RegisterCounts): each claim's form with
// the claimed count, on a target supporting it.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>

namespace ptxcts {
namespace {

struct RegisterCounts : AuditContext {
  void register_claims();
};

void RegisterCounts::register_claims() {
  for (auto const& rc : plan.register_claims) {
    const RegisterClaim& c = *rc.claim;
    StatementVerdict s{.id = c.id,
                       .kind = "register-count",
                       .family = c.family,
                       .words = c.text,
                       .source = c.cite.source,
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .forms = 1};
    if (!rc.instance) s.evidence = "no form of the variant matches the claim's qualifiers";
    else if (!rc.on)
      s.evidence = "no target of this toolkit supports the form, or its PTX ISA is older than the form's";
    else if (decided(*rc.on, "register claim " + c.id)) {
      const ProbeVerdict& pv = verdict(*rc.on);
      s.verdict = pv.accepted ? Verdict::Confirmed : Verdict::Contradicted;
      s.evidence = fmt::format("{} with {} registers for {{{}}} on {}: {}{}", rc.instance->mnemonic(), c.registers,
                               c.operand, rc.on->target, accepted_or(pv),
                               rc.spec_registers != c.registers
                                   ? fmt::format(" (the spec's variant {} uses {})", c.variant, rc.spec_registers)
                                   : "");
      if (!pv.accepted) {
        Finding& f = findings.at(QuestionKind::RegisterCounts, "document-error/register-count/" + c.id,
                                 FindingClass::DocumentError, false, c.id, c.text, c.cite.source);
        findings.saw(f, rc.instruction, rc.on->target, accepted_or(pv));
      }
    }
    audit.statements.push_back(std::move(s));
  }
}

}  // namespace

void judge_register_claims(AuditContext& cx) { RegisterCounts{cx}.register_claims(); }

}  // namespace ptxcts
