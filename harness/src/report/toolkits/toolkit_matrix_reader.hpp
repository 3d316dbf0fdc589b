// Reading the toolkit matrix back (reports/toolkits.json, schema 1, "kind": "toolkit-matrix" or none,
// as report/toolkits/toolkit_matrix_report writes it) for its page: checked as strictly as the other readers
// (util/json_document): every key known, every type, a column per toolkit in every side-by-side
// row, the changes between consecutive releases of known kinds and counted as listed; an error names
// FILE:LINE:COLUMN and what was expected.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "judge/toolkit_matrix.hpp"
#include "report/audit/audit_report.hpp"
#include "results/toolkit_identity.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

inline constexpr int kToolkitMatrixSchema = 1;

struct MatrixFile {
  std::string file;
  AuditRun run;
  struct Toolkit {
    ToolkitIdentity toolkit;
    std::string report;  // its audit report's file name
    std::size_t probes = 0, findings = 0, contradictions = 0;
  };
  std::vector<Toolkit> toolkits;   // oldest first
  std::vector<PairChanges> steps;  // toolkits[i] -> toolkits[i + 1]

  struct FindingCell {
    std::string cls, observed;
    std::size_t forms = 0;
    bool fails = false, known = false;
  };
  struct VerdictCell {
    std::string verdict, evidence;
  };
  struct FormCell {
    std::string state, verdict, evidence;
  };
  // A row side by side: a cell per toolkit (in the order of `toolkits`), none where it lacks the row.
  template <class Cell>
  struct Row {
    std::string id;
    std::vector<std::optional<Cell>> per;
  };
  struct GrammarRow {
    std::string block, instruction;
    std::vector<std::optional<std::string>> verdicts;  // per toolkit: a character per its target (+ - !)
  };
  std::vector<Row<FindingCell>> findings;
  std::vector<Row<VerdictCell>> statements, requirements;
  std::vector<Row<FormCell>> forms;
  std::vector<GrammarRow> grammar;
  // What the code became (SASS), per consecutive pair of releases that have a SASS report; empty
  // where the matrix has none (optional "sass_changes").
  struct SassChange {
    std::string kernel, target, before, after;
  };
  struct SassStep {
    std::string from, to;
    std::vector<std::string> disassemblers;
    std::vector<SassChange> changes;
  };
  std::vector<SassStep> sass;
};

// Throws JsonInputError for anything that is not a toolkit matrix of this schema.
MatrixFile read_matrix_file(const JsonDocument& doc);
MatrixFile parse_matrix_file(const std::string& text, const std::string& file);

}  // namespace ptxcts
