#include "report/run/report_markdown.hpp"
#include "results/outcome.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include "kinds/kinds.hpp"
#include "report/run/sass_text.hpp"
#include "report/sentence_table.hpp"
#include "report/run/report_json.hpp"

namespace ptxcts {

namespace {

// A table cell: '|' would end the cell, a newline the row, '<' could open an HTML tag.
std::string escaped_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '\n': out += "<br>"; break;
      case '\r': break;
      case '<': out += "&lt;"; break;
      default: out += c;
    }
  }
  return out;
}

// A fence longer than any backtick run in the block, so diff text cannot close it early.
std::string fence_for(const std::vector<std::string>& lines) {
  std::size_t longest = 0;
  for (auto const& line : lines) {
    std::size_t run = 0;
    for (char c : line) longest = std::max(longest, run = (c == '`' ? run + 1 : 0));
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

// The outcome in the suite's words; bold only where it needs action, "(known)" where an expectation says so.
std::string outcome_cell(const CaseResult& r) {
  std::string word = label(outcome_of(r));
  if (!r.known.empty()) return word + " (known)";
  return needs_action(r) ? fmt::format("**{}**", word) : word;
}

bool has_sass(const RunReport& report) { return !report.sass.disassembler.empty() || !report.sass.unavailable.empty(); }

// The SASS one result's kernel became on its target, as a cell.
std::string sass_cell(const RunReport& report, const CaseResult& r) {
  const KernelSass* k = report.sass.find(r.kernel, r.target);
  if (!k) return r.target.empty() ? "" : "no SASS";
  std::string text = escaped_cell(sass_summary(*k));
  return sass_missing(k->matched, k->expected, k->unavailable) ? "**" + text + "**" : text;
}

// Beside each contradicted claim, what the code of its kernels became: the evidence a reader needs
// to ask whether the hardware or the compiler made the difference.
void contradicted_sass(std::string& out, const RunReport& report, const std::vector<const ClaimVerdict*>& claims) {
  constexpr std::size_t kRows = 12;
  bool heading = false;
  for (const ClaimVerdict* c : claims) {
    if (c->verdict != Verdict::Contradicted) continue;
    std::vector<const CaseResult*> rows;
    for (auto const& checked : c->checked)
      for (auto const& r : report.results)
        if (checked == r.kernel + "/" + r.case_name && !r.target.empty()) rows.push_back(&r);
    if (rows.empty() || !has_sass(report)) continue;  // a claim on assemblies (the audit's), or no SASS at all
    if (!heading) {
      out += "### What the code became, beside the contradicted claims\n\n";
      out += report.sass.unavailable.empty()
                 ? fmt::format(
                       "SASS by {}; the opcodes whose mnemonic the specs expect for the instruction under test.\n\n",
                       report.sass.disassembler.empty() ? std::string("(no disassembler named)")
                                                        : report.sass.disassembler)
                 : fmt::format("{}\n\n", escaped_cell(report.sass.unavailable));
      heading = true;
    }
    fmt::format_to(std::back_inserter(out),
                   "**{}** ({} results)\n\n| Kernel | Case | Target | Outcome | SASS |\n|---|---|---|---|---|\n",
                   escaped_cell(c->id), rows.size());
    for (std::size_t n = 0; n < rows.size() && n < kRows; ++n)
      fmt::format_to(std::back_inserter(out), "| {} | {} | {} | {} | {} |\n", escaped_cell(rows[n]->kernel),
                     escaped_cell(rows[n]->case_name), escaped_cell(rows[n]->target), outcome_cell(*rows[n]),
                     sass_cell(report, *rows[n]));
    if (rows.size() > kRows)
      fmt::format_to(std::back_inserter(out), "\n... and {} more (the JSON report has every one)\n",
                     rows.size() - kRows);
    out += "\n";
  }
}

void claims_markdown(std::string& out, const RunReport& report) {
  out += "## Claims\n\n";
  if (report.claims.empty()) {
    out += "No claims were checked.\n\n";
    return;
  }
  // Contradicted claims are the news of a run: they come first, then the undecided ones, otherwise in
  // catalog order.
  std::vector<const ClaimVerdict*> claims;
  int undecided = 0;
  for (auto const& c : report.claims) {
    claims.push_back(&c);
    undecided += c.verdict == Verdict::Undecided;
  }
  std::stable_partition(std::stable_partition(claims.begin(), claims.end(),
                                              [](const ClaimVerdict* c) { return c->verdict == Verdict::Contradicted; }),
                        claims.end(), [](const ClaimVerdict* c) { return c->verdict == Verdict::Undecided; });
  if (undecided)
    fmt::format_to(std::back_inserter(out),
                   "{} undecided: every case that would contradict {} needs action on this run (the GPU gets wrong "
                   "what the claim is about), so the run cannot say whether the document is right. Not documentation "
                   "findings.\n\n",
                   undecided == 1 ? "1 claim is" : fmt::format("{} claims are", undecided),
                   undecided == 1 ? "it" : "them");
  out += "| Claim | Verdict | Claim text | Source | Evidence |\n|---|---|---|---|---|\n";
  for (const ClaimVerdict* c : claims) {
    std::string verdict = refuted_hypothesis(*c) ? fmt::format("**{}** (the suite's hypothesis: not a documentation "
                                                               "finding)",
                                                               to_string(c->verdict))
                          : c->verdict == Verdict::Contradicted ? fmt::format("**{}**", to_string(c->verdict))
                          : c->verdict == Verdict::Undecided  ? fmt::format("*{}*", to_string(c->verdict))
                                                              : to_string(c->verdict);
    std::string text = c->note.empty() ? escaped_cell(c->text) : escaped_cell(c->text) + "<br>*Note:* " + escaped_cell(c->note);
    fmt::format_to(std::back_inserter(out), "| {} | {} | {} | {} | {} |\n", escaped_cell(c->id), verdict, text, escaped_cell(c->source),
                   escaped_cell(c->evidence));
  }
  out += "\n";
  contradicted_sass(out, report, claims);
}

void family_section(std::string& out, const RunReport& report, const std::string& family,
                    const std::vector<const CaseResult*>& results) {
  fmt::format_to(std::back_inserter(out), "### {}\n\n", family);
  // A SASS column only where there is SASS (the report's header says once why there is none).
  const bool sass = has_sass(report) && report.sass.unavailable.empty();
  out += sass ? "| Kernel | Instruction | Case | Target | Outcome | Reason | SASS |\n|---|---|---|---|---|---|---|\n"
              : "| Kernel | Instruction | Case | Target | Outcome | Reason |\n|---|---|---|---|---|---|\n";
  for (const CaseResult* r : results)
    fmt::format_to(std::back_inserter(out), "| {} | {} | {} | {} | {} | {} |{}\n", escaped_cell(r->kernel),
                   escaped_cell(r->instruction), escaped_cell(r->case_name), escaped_cell(r->target), outcome_cell(*r),
                   escaped_cell(r->ran_on.empty() ? r->reason : r->reason + " (ran on " + r->ran_on + ")"),
                   sass ? " " + sass_cell(report, *r) + " |" : "");
  out += "\n";
  for (const CaseResult* r : results) {
    if (!needs_action(*r) || outcome_of(*r) != Outcome::Fail) continue;
    fmt::format_to(std::back_inserter(out), "**Failure: {}** ({} mismatches): {}\n\n", case_id(*r),
                   r->mismatches, r->reason);
    if (r->diff.empty()) continue;
    std::string fence = fence_for(r->diff);
    fmt::format_to(std::back_inserter(out), "{}text\n{}\n{}\n\n", fence, fmt::join(r->diff, "\n"), fence);
  }
}

// Where the documents leave a fragment's register layout unspecified (the kinds that observe
// layouts: InstructionKind::observes_layouts), what this GPU did is recorded, grouped by layout so
// that forms sharing one (every state space and stride of a shape/type/layout) show as one.
void layouts_markdown(std::string& out, const RunReport& report) {
  std::map<std::string, std::vector<std::string>> kernels_by_layout;
  for (auto const& r : report.results)
    if (!r.observed_layout.empty()) kernels_by_layout[r.observed_layout].push_back(r.kernel);
  if (kernels_by_layout.empty()) return;
  const std::string observers = layout_observers();
  fmt::format_to(
      std::back_inserter(out),
      "## Observed {0} fragment layouts\n\n"
      "The manual leaves the register layout of {0} fragments unspecified; these are what this GPU did "
      "(element (row, col) of the matrix in each lane's register r, or its low/high half), {1} distinct layouts. "
      "The JSON report has every lane; here the first four lanes.\n\n",
      observers, kernels_by_layout.size());
  for (auto const& [layout, kernels] : kernels_by_layout) {
    std::size_t at = 0;
    for (int l = 0; l < 4 && at != std::string::npos; ++l) at = layout.find('\n', at + 1);
    fmt::format_to(std::back_inserter(out), "- {} kernel(s), e.g. `{}`{}\n\n```text\n{}\n```\n\n", kernels.size(),
                   kernels.front(), kernels.size() > 1 ? fmt::format(" and `{}`", kernels.back()) : "",
                   layout.substr(0, at));
  }
}

// The cases, counted once: every outcome over every case (a case: one kernel with one of its inputs).
std::string summary_markdown(const RunReport& report) {
  const Tally t = tally(report.results);
  std::set<std::string> kernels;
  for (auto const& r : report.results) kernels.insert(r.kernel);
  std::string parts;
  for (Outcome o : kOutcomes)
    if (t[o]) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", count_text(t[o]), label(o));
  return fmt::format("**Cases:** {} ({} kernels, each with its cases){}{}\n\n", count_text(t.cases()),
                     count_text(static_cast<long long>(kernels.size())), parts.empty() ? "" : ": ", parts) +
         (t[Outcome::Faulted] + t[Outcome::RanWithoutFault]
              ? "Fault cases break a documented rule on purpose: whether the GPU faulted is an observation, never a "
                "failure.\n\n"
              : "") +
         (t[Outcome::Undefined] ? "Cases undefined on their target: the documents leave what they do undefined "
                                  "there, so what the GPU did is an observation, never a failure.\n\n"
                                : "");
}

// What this run leaves out on purpose, that an earlier one reported (`ptxcts diff` names it so).
void withdrawn_markdown(std::string& out, const RunReport& report) {
  if (report.withdrawn.empty()) return;
  out += "## Withdrawn\n\n| What | Why |\n|---|---|\n";
  for (auto const& w : report.withdrawn)
    fmt::format_to(std::back_inserter(out), "| {} | {} |\n", escaped_cell(w.what), escaped_cell(w.reason));
  out += "\n";
}

}  // namespace

std::string report_markdown(const RunReport& report) {
  const RunInfo& info = report.info;
  std::string out =
      fmt::format("# ptxcts report: {} ({}), driver {}, CUDA {}{}\n\n", info.gpu_name, info.sm, info.driver_version,
                  info.cuda_release, ran_driver_jit(info) ? ", compiled by the driver's JIT" : "");

  out += fmt::format("**{}**\n\n", verdict_line(report));  // the verdict first: all a reader may need
  out += "| Run | |\n|---|---|\n";
  for (auto const& f : run_info_fields())
    fmt::format_to(std::back_inserter(out), "| {} | {} |\n", f.key, escaped_cell(info.*f.member));
  fmt::format_to(std::back_inserter(out), "| schema_version | {} |\n", RunReport::kSchemaVersion);
  if (has_sass(report))
    fmt::format_to(std::back_inserter(out), "| sass | {} |\n",
                   escaped_cell(report.sass.unavailable.empty() ? report.sass.disassembler : report.sass.unavailable));
  out += "\n";

  out += summary_markdown(report);
  claims_markdown(out, report);
  if (!report.sentences.empty()) out += sentence_counts_markdown(report.sentences, kRunElsewhere).substr(1) + "\n";
  layouts_markdown(out, report);
  withdrawn_markdown(out, report);

  out += "## Results\n\n";
  if (report.results.empty()) out += "No cases ran.\n\n";
  // Families in the order they first appear, so the report follows the catalog.
  std::vector<std::string> families;
  for (auto const& r : report.results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  for (auto const& family : families) {
    std::vector<const CaseResult*> results;
    for (auto const& r : report.results)
      if (r.family == family) results.push_back(&r);
    family_section(out, report, family, results);
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace ptxcts
