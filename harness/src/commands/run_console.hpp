// What `ptxcts run` says at its end, in the suite's one vocabulary (results/outcome): the verdict
// line last, where the reports went (or that none were written), and as much else as the verbosity
// asks for. --quiet says less than the default; --verbose says everything. Long lines are wrapped.
// May call: results/, judge/ (the audit's findings), report/ (folded target lists).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "commands/terminal_progress.hpp"
#include "judge/audit.hpp"
#include "results/results.hpp"

namespace ptxcts {

// `text` wrapped at spaces to lines of at most `width` columns, each line after the first indented by
// `indent` spaces; a word longer than a line stays whole.
std::string wrapped(const std::string& text, std::size_t width = 100, std::size_t indent = 4);

// "357 findings: 0 not expected by the specs, 66 known, 291 for information": disjoint parts that add
// up to the findings (a finding not expected fails the audit; a known one is in the specs).
std::string finding_counts(const Audit& audit);

// The toolkit audit's findings in a run: a count (default), the unexpected ones listed (default), every
// one but the undocumented forms accepted (verbose; the audit's report lists those).
void print_audit_findings(std::FILE* out, const Audit& audit, Verbosity v);

// The documentation claims a run judged: the contradicted ones (findings) by default, every one with
// --verbose (the undecided ones among them: no findings, their cases need action), none with --quiet
// (the verdict line counts them).
void print_claims(std::FILE* out, const std::vector<ClaimVerdict>& claims, Verbosity v, const std::string& prefix = "");

// With --verbose, the sentences of the manual's sections this run judged, summed over the sections
// (results/sentence_counts; the reports have them per section); nothing where the specs have no inventory.
void print_sentence_counts(std::FILE* out, const std::vector<SentenceCount>& counts, Verbosity v,
                           const char* elsewhere, const std::string& prefix = "");

// The end of a run without a GPU: the claims the toolkit alone judged, where its JUnit file went (""
// when it could not be written), and a verdict line.
void print_toolkit_side_end(std::FILE* out, const std::vector<ClaimVerdict>& claims, Verbosity v,
                            const std::string& junit);

// One GPU's end: where its reports went ("" when none were written, and `why_none` says why), then its
// verdict line (prefixed "[GPU n] " when the run had several).
void print_gpu_end(std::FILE* out, const RunReport& report, const std::string& reports, const std::string& why_none,
                   const std::string& prefix);

}  // namespace ptxcts
