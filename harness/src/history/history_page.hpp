// The history page (`ptxcts history page OUT.html`): the stored runs as one self-contained page like
// the others (report/pages/html_document: a DOM saved once, the shared style and script, the CSP). Rows per
// family and form, columns per GPU model x driver x toolkit, the columns of a model in time order (of
// their first run); each cell the outcome counts of the form's cases in that column's latest run,
// marked where they changed since the model's previous column; a cell that changed opens (a
// <details>, no script) on its transitions: each case whose outcome changed, before -> after, with
// the evidence (the reason, the first mismatch, the known difference). Neighbouring columns with the
// same counts and no change are one cell across them (as the fleet page does), so that 100 runs of a
// few GPU models stay a small page.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "results/outcome.hpp"
#include "results/results.hpp"

namespace ptxcts {

// A case as the page needs it.
struct HistoryCase {
  std::string id;      // case_id: "KERNEL/CASE"
  std::string family;  // ldmatrix, ...
  std::string form;    // the instruction under test
  Outcome outcome = Outcome::Error;
  std::string evidence;  // why, in a line: the reason, the first mismatch, a known difference ("" a pass)
};

// A stored run as the page needs it.
struct HistoryRun {
  std::string gpu_model;  // "NVIDIA H100 80GB HBM3 (sm_90)"
  std::string driver;     // "580.159.04"
  std::string toolkit;    // "CUDA 13.0" (", driver JIT" where the driver compiled the code)
  std::string date;       // ISO 8601, UTC: orders the runs
  std::string host, suite_commit;
  std::vector<HistoryCase> cases;
  std::int64_t run_id = 0;       // in the history (0: not from one)
  bool has_evidence = true;      // false: drawn from the history's outcome codes, evidence asked when shown
};

// A changed case's evidence where its run was drawn without it (history/history_page_runs reads the
// run's report then, once per run); none given: the case's own.
using EvidenceOf = std::function<std::string(const HistoryRun& run, const HistoryCase& c)>;

// The run's identity and cases, from its report.
HistoryRun history_run_of(const RunReport& report);
// The case's evidence line, as the page shows it.
std::string case_evidence(const CaseResult& r);

// The page of these runs (in any order).
std::string history_page_html(const std::vector<HistoryRun>& runs, const EvidenceOf& evidence = {});

}  // namespace ptxcts
