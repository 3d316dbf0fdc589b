// The PTX ISA versions of the targets and of the toolkit (QuestionKind::PtxVersions), and what the
// version ladders (judge/version_ladder.hpp) said on the version findings they were asked for.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "judge/version_ladder.hpp"

namespace ptxcts {
namespace {

struct Versions : AuditContext {
  void versions_of_targets();
  void target_version(const TargetVersionSubject& tv);
  void toolkit_version();
  void ladder_findings();
};

void Versions::versions_of_targets() {
  for (auto const& tv : plan.target_versions) target_version(tv);
  toolkit_version();
}

// A target's first PTX ISA version: accepted at it, rejected at the one before.
void Versions::target_version(const TargetVersionSubject& tv) {
  const std::string source =
      "specs/targets.yaml, from the PTX ISA manual's release notes (first PTX ISA version of each target)";
  const TargetInfo& t = *tv.target;
  StatementVerdict s{.id = t.name,
                     .kind = "target-version",
                     .family = "",
                     .words = fmt::format("{} is supported from PTX ISA {}", t.name, t.ptx.str()),
                     .source = source,
                     .verdict = Verdict::NotCheckable,
                     .evidence = "",
                     .forms = 1};
  if (!tv.at) s.evidence = "this toolkit's PTX ISA version is older";
  else if (decided(*tv.at, ".target " + t.name)) {
    const ProbeVerdict& at = verdict(*tv.at);
    std::string below = "no earlier PTX ISA version in targets.yaml";
    bool below_ok = true;
    if (tv.below && decided(*tv.below, ".target " + t.name)) {
      const ProbeVerdict& b = verdict(*tv.below);
      below_ok = !b.accepted;
      below = fmt::format("PTX ISA {}: {}", tv.below_version.str(), accepted_or(b));
    }
    s.verdict = at.accepted && below_ok ? Verdict::Confirmed : Verdict::Contradicted;
    s.evidence = fmt::format("PTX ISA {}: {}; {}", t.ptx.str(), accepted_or(at), below);
    if (!tv.ladder.empty())
      s.evidence += fmt::format("; {}; the documents say PTX ISA {}", read_ladder(tv.ladder, v).text, t.ptx.str());
    if (s.verdict == Verdict::Contradicted) {  // rejected at the documented version, or accepted before it
      const FindingClass cls = !at.accepted ? FindingClass::ToolkitRejects : FindingClass::ToolkitAccepts;
      Finding& f =
          findings.at(QuestionKind::PtxVersions, fmt::format("{}/target-version/{}", finding_class_id(cls), t.name),
                      cls, false, t.name, s.words, source);
      findings.saw(f, ".target " + t.name, t.name, s.evidence);
    }
  }
  audit.statements.push_back(std::move(s));
}

// The toolkit's own PTX ISA version (where targets.yaml lists it): accepted, and the next one not.
void Versions::toolkit_version() {
  if (auto const& tk = plan.toolkit_version) {
    StatementVerdict s{.id = "toolkit-ptx-isa",
                       .kind = "toolkit-version",
                       .family = "",
                       .words = fmt::format("CUDA {} speaks PTX ISA {}", plan.cuda_release, tk->documented.str()),
                       .source = "specs/targets.yaml toolkits, from the CUDA release notes",
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .forms = 1};
    if (decided(*tk->at, ".version") && decided(*tk->above, ".version")) {
      const ProbeVerdict &at = verdict(*tk->at), &above = verdict(*tk->above);
      s.verdict = at.accepted && !above.accepted ? Verdict::Confirmed : Verdict::Contradicted;
      s.evidence = fmt::format(".version {}: {}; .version {}: {}", tk->documented.str(), accepted_or(at),
                               tk->above_version.str(), accepted_or(above));
      if (s.verdict == Verdict::Contradicted) {
        const FindingClass cls = !at.accepted ? FindingClass::ToolkitRejects : FindingClass::ToolkitAccepts;
        Finding& f = findings.at(QuestionKind::PtxVersions,
                                 fmt::format("{}/toolkit-version/{}", finding_class_id(cls), plan.cuda_release), cls,
                                 false, s.id, s.words, s.source);
        findings.saw(f, ".version " + tk->documented.str(), tk->at->target, s.evidence);
      }
    }
    audit.statements.push_back(std::move(s));
  } else if (!plan.targets.empty()) {
    audit.statements.push_back(
        {.id = "toolkit-ptx-isa",
         .kind = "toolkit-version",
         .family = "",
         .words = fmt::format("the PTX ISA version CUDA {} speaks (not listed)", plan.cuda_release),
         .source = "specs/targets.yaml toolkits, from the CUDA release notes",
         .verdict = Verdict::NotCheckable,
         .evidence = fmt::format("specs/targets.yaml lists no PTX ISA version for CUDA {}; ptxas {} says it speaks "
                                 "PTX ISA {} ({})",
                                 plan.cuda_release, plan.ptxas_version, plan.toolkit_ptx.str(),
                                 plan.toolkit_ptx_read_by.empty() ? "targets.yaml" : plan.toolkit_ptx_read_by),
         .forms = 1});
  }
}

// What the ladders said, on the findings they were asked for: the real bound beside the documented one.
void Versions::ladder_findings() {
  for (auto const& [id, said_by] : ladders) {
    Finding& f = findings.list[findings.index.at(id)];
    std::vector<std::string> parts;
    for (auto const& [text, n] : said_by) parts.push_back(fmt::format("{} ({} form{})", text, n, n == 1 ? "" : "s"));
    f.observed += fmt::format("; {}; the documents say {}", fmt::join(parts, "; "),
                              f.words.substr(std::string("introduced in ").size()));
  }
}

}  // namespace

void judge_target_versions(AuditContext& cx) { Versions{cx}.versions_of_targets(); }
void judge_ladders(AuditContext& cx) { Versions{cx}.ladder_findings(); }

}  // namespace ptxcts
