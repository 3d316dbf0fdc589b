// The manual's examples (QuestionKind::ManualExamples), each as written on the targets its
// instruction is documented for, and where no syntax block spells one, the documents disagreeing.
#include "judge/questions/questions.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ptxcts {
namespace {

struct Examples : AuditContext {
  void examples();
  void example_disagreement(const ExampleSubject& e, const std::vector<std::string>& ok, const std::string& observed);
};

// An example is judged as an example: does ptxas take its own text where its instruction is
// documented to exist (the targets of its requirements; at the version whose spelling it uses)?
// A rejection elsewhere is its requirement's business. Whether a syntax block spells it is another
// statement: where none does, or a rule forbids it, the documents disagree (a finding apart).
void Examples::examples() {
  for (auto const& e : plan.examples) {
    const DocExample& ex = *e.example;
    StatementVerdict s{.id = ex.id,
                       .kind = "example",
                       .family = ex.family,
                       .words = ex.text,
                       .source = ex.cite.source,
                       .verdict = Verdict::NotCheckable,
                       .evidence = "",
                       .forms = 1};
    std::vector<std::string> ok, bad;
    std::string first_bad;  // the newest target's: the likeliest to know what the example spells
    for (auto const& on : e.on) {
      if (!decided(on, "example " + ex.id)) continue;
      const ProbeVerdict& pv = verdict(on);
      (pv.accepted ? ok : bad).push_back(on.target);
      if (!pv.accepted) first_bad = on.target + ": " + said(pv.message);
    }
    const std::string at = e.version == plan.toolkit_ptx ? "" : " at PTX ISA " + e.version.str();
    const std::string observed = bad.empty() ? fmt::format("ptxas accepts it on {} targets{}", ok.size(), at)
                                             : fmt::format("ptxas rejects it on {} of {} targets{}: {}", bad.size(),
                                                           ok.size() + bad.size(), at, first_bad);
    const std::string where =
        e.spelling   ? fmt::format("a target of its instruction at PTX ISA {}, the newest that spells it so: \"{}\"",
                                   e.version.str(), e.spelling->text)
        : e.instance ? "the targets its instruction is documented for"
                     : "every target: its instruction is in no variant of the specs";
    if (e.too_new)
      s.evidence = fmt::format("this toolkit's PTX ISA {} is older than the {} its instruction needs: not asked",
                               plan.toolkit_ptx.str(), e.instance->min_ptx().str());
    else if (ok.empty() && bad.empty())
      s.evidence = e.on.empty() ? "no target of its instruction is known at PTX ISA " + e.version.str()
                                : "ptxas gave no verdict";
    else {
      // Rejected where its instruction is documented (or, where that is not known, everywhere): the example errs.
      const bool errs = !bad.empty() && (e.instance || ok.empty());
      s.verdict = bad.empty() ? Verdict::Confirmed : errs ? Verdict::Contradicted : Verdict::NotCheckable;
      s.evidence = observed + " (" + where + ")";
      if (errs) {
        Finding& f =
            findings.at(QuestionKind::ManualExamples, "document-error/example/" + ex.id, FindingClass::DocumentError,
                        false, ex.id + " (" + ex.cite.document + ")", ex.text, ex.cite.source);
        for (auto const& t : bad) findings.saw(f, ex.instructions.front(), t, "rejected: " + first_bad);
      }
    }
    if (e.doc != DocClass::Valid) example_disagreement(e, ok, e.on.empty() || e.too_new ? "not asked" : observed);
    audit.statements.push_back(std::move(s));
  }
}

// An example no syntax block spells as written, or one a rule forbids: the documents disagree (the
// example and the block(s) that spell its instruction, or the rule), whatever ptxas does with it.
void Examples::example_disagreement(const ExampleSubject& e, const std::vector<std::string>& ok,
                                    const std::string& observed) {
  const DocExample& ex = *e.example;
  const std::string written = ex.instructions.front().substr(0, ex.instructions.front().find_first_of(" \t"));
  std::vector<std::string> ids, lines;
  for (auto const* b : e.blocks) ids.push_back(b->id), lines.push_back(b->manual + " (" + b->cite.source + ")");
  std::string why, subject;
  if (e.doc == DocClass::Invalid) {
    why = fmt::format("rule '{}' forbids it: \"{}\" ({})", e.forbidden_by.front()->id, e.forbidden_by.front()->text,
                      e.forbidden_by.front()->cite.source);
    subject = fmt::format("example {} vs rule {}", ex.id, e.forbidden_by.front()->id);
  } else if (!e.blocks.empty()) {
    why = fmt::format("no syntax block spells {} as written; {} spell{} its instruction {}: {}", written,
                      fmt::join(ids, ", "), ids.size() == 1 ? "s" : "", e.documented_text, fmt::join(lines, "; "));
    subject = fmt::format("example {} vs {}", ex.id, fmt::join(ids, ", "));
  } else {
    why = fmt::format("no syntax block of the documents spells {}, in any order", written);
    subject = fmt::format("example {} vs the syntax blocks of {}", ex.id, ex.family);
  }
  if (e.spelling)
    why += fmt::format("; it is written without {}, as the documents spell it below PTX ISA {}: \"{}\" ({})",
                       e.spelling->qualifier, e.spelling->from.str(), e.spelling->text, e.spelling->cite.source);
  Finding& f = findings.at(QuestionKind::ManualExamples, "documents-disagree/example/" + ex.id,
                           FindingClass::DocumentsDisagree, false, subject,
                           ex.id + " (" + ex.cite.document + ", " + ex.cite.source + "): " + written + "; but " + why,
                           ex.cite.source);
  findings.saw(f, ex.instructions.front(), ok.empty() ? "" : ok.front(), observed);
  if (!ok.empty() && e.doc == DocClass::Invalid) {  // and ptxas takes what the rule forbids
    Finding& g =
        findings.at(QuestionKind::ManualExamples, "toolkit-accepts/example/" + ex.id, FindingClass::ToolkitAccepts,
                    false, ex.id, e.forbidden_by.front()->text, e.forbidden_by.front()->cite.source);
    for (auto const& t : ok) findings.saw(g, ex.instructions.front(), t, "accepted");
  }
}

}  // namespace

void judge_examples(AuditContext& cx) { Examples{cx}.examples(); }

}  // namespace ptxcts
