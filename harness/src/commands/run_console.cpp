#include "commands/run_console.hpp"

#include <fmt/format.h>

#include <sstream>

#include "report/pages/target_lists.hpp"
#include "results/outcome.hpp"
#include "results/sentence_counts.hpp"

namespace ptxcts {

std::string wrapped(const std::string& text, std::size_t width, std::size_t indent) {
  std::istringstream words(text);
  std::string out, line, word;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
    } else if (!line.empty() && line.find_first_not_of(' ') != std::string::npos) {
      line += ' ';
    }
    line += word;
  }
  return out + line;
}

std::string finding_counts(const Audit& audit) {
  int failing = 0, known = 0;
  for (auto const& f : audit.findings) {
    failing += f.fails();
    known += !f.fails() && f.known != nullptr;
  }
  const int n = static_cast<int>(audit.findings.size());
  return fmt::format("{} finding{}: {} not expected by the specs, {} known, {} for information", count_text(n),
                     n == 1 ? "" : "s", count_text(failing), count_text(known), count_text(n - failing - known));
}

void print_audit_findings(std::FILE* out, const Audit& audit, Verbosity v) {
  if (v == Verbosity::Quiet || audit.ptxas_version.empty()) return;
  fmt::print(out, "{}\n",
             wrapped(fmt::format("Toolkit audit (ptxas {}): {} (forms no document lists, documents that disagree)",
                                 audit.ptxas_version, finding_counts(audit))));
  for (auto const& f : audit.findings)
    if (v == Verbosity::Verbose ? !f.undocumented : f.fails())
      fmt::print(out, "  {}\n",
                 wrapped(fmt::format("{} {}: {} form(s): {}{}", finding_class_id(f.cls), f.subject, f.forms,
                                     fold_target_lists(f.observed),
                                     f.known     ? " [known]"
                                     : f.fails() ? " [NOT EXPECTED]"
                                                 : ""),
                         98, 6));
  print_sentence_counts(out, audit.sentences, v, "not judged by this audit (the GPU's, or nothing to ask)");
}

void print_claims(std::FILE* out, const std::vector<ClaimVerdict>& claims, Verbosity v, const std::string& prefix) {
  if (v == Verbosity::Quiet) return;
  for (auto const& c : claims) {
    const bool finding = c.verdict == Verdict::Contradicted;
    if (!finding && v != Verbosity::Verbose) continue;
    std::string line = fmt::format("{}claim {} {}{}{}: {}", prefix, to_string(c.verdict), c.id,
                                   c.hypothesis ? " (the suite's hypothesis)" : "", c.known.empty() ? "" : " (known)",
                                   fold_target_lists(c.evidence));
    // Long evidence is cut at a word (the report has all of it).
    if (v != Verbosity::Verbose && line.size() > 300) line = line.substr(0, line.rfind(' ', 296)) + " \u2026";
    fmt::print(out, "  {}\n", wrapped(line, 98, 6));
  }
}

void print_sentence_counts(std::FILE* out, const std::vector<SentenceCount>& counts, Verbosity v,
                           const char* elsewhere, const std::string& prefix) {
  const std::string line = sentence_counts_line(counts, elsewhere);
  if (v == Verbosity::Verbose && !line.empty()) fmt::print(out, "  {}\n", wrapped(prefix + line, 98, 6));
}

void print_toolkit_side_end(std::FILE* out, const std::vector<ClaimVerdict>& claims, Verbosity v,
                            const std::string& junit) {
  int confirmed = 0, contradicted = 0, observed = 0, undecided = 0;
  for (auto const& c : claims) {
    confirmed += c.verdict == Verdict::Confirmed;
    contradicted += c.verdict == Verdict::Contradicted;
    observed += c.verdict == Verdict::Observed;
    undecided += c.verdict == Verdict::Undecided;
  }
  if (v != Verbosity::Quiet) {
    fmt::print(out, "\nClaims the toolkit alone can judge:\n");
    print_claims(out, claims, v);
  }
  if (junit.empty())
    fmt::print(out, "No reports written: a run without a GPU writes only its JUnit file, and that failed.\n");
  else
    fmt::print(out, "{}\n",
               wrapped(fmt::format(
                   "Reports: {} only (JUnit: every case skipped, no GPU; `ptxcts audit` writes the toolkit's).", junit)));
  // The claims in parts that add up to them: each verdict named, those without a GPU's cases last.
  const int unchecked = static_cast<int>(claims.size()) - confirmed - contradicted - observed - undecided;
  std::string parts = fmt::format("{} confirmed, {} contradicted (documentation findings), ", confirmed, contradicted);
  if (observed) parts += fmt::format("{} observed, ", observed);
  if (undecided) parts += fmt::format("{} undecided, ", undecided);
  fmt::print(out, "{}\n",
             wrapped(fmt::format("Toolkit side only (no GPU): no case ran; {} documentation claims: {}{} not checkable "
                                 "without a GPU.",
                                 count_text(static_cast<long long>(claims.size())), parts, unchecked)));
}

void print_gpu_end(std::FILE* out, const RunReport& report, const std::string& reports, const std::string& why_none,
                   const std::string& prefix) {
  if (reports.empty()) fmt::print(out, "{}No reports written: {}.\n", prefix, why_none);
  else fmt::print(out, "{}Reports: {}\n", prefix, reports);
  fmt::print(out, "{}\n", wrapped(prefix + verdict_line(report)));
}

}  // namespace ptxcts
