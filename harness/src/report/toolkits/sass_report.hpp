// What the code becomes, per toolkit: reports/sass-cuda<release>.{json,md}, a table form x target
// of the SASS opcodes that implement each kernel's instruction under test (from the catalog's
// manifest, assemble/catalog_sass), and, for the toolkit matrix, what changed between releases.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "assemble/catalog_manifest.hpp"
#include "plan/suite.hpp"
#include "report/audit/audit_report.hpp"
#include "results/toolkit_identity.hpp"
#include "util/json_document.hpp"

namespace ptxcts {

// Its toolkit (results/toolkit_identity: cuda_release, ptxas_version, targets: the catalog's, in its
// order; ptx_isa: the toolkit's, not in the JSON of schema 1, so "" when read back) is a base, as
// the audit's (judge/toolkit_matrix's AuditSummary).
struct SassReport : ToolkitIdentity {
  static constexpr int kSchemaVersion = 1;
  std::string disassembler, unavailable;
  std::vector<SassExpectation> expectations;  // the specs' (family, operation, mnemonics, source)
  struct Row {
    std::string kernel, family, form;  // form: the instruction under test with its qualifiers
    std::vector<std::string> expected;
    std::map<std::string, std::vector<std::string>> matched;   // accepted and disassembled: target -> opcodes
    std::map<std::string, std::string> no_sass;                // accepted, no SASS: target -> why
    std::vector<std::string> rejected, not_attempted, errors;  // targets
  };
  std::vector<Row> rows;
};

SassReport build_sass_report(const Catalog& cat, const Suite& suite);
std::string sass_report_json(const SassReport& r, const AuditRun& run);
std::string sass_report_markdown(const SassReport& r, const AuditRun& run);
// Writes sass-cuda<release>.json and .md into `dir` atomically; returns the JSON's path.
std::filesystem::path write_sass_reports(const SassReport& r, const AuditRun& run, const std::filesystem::path& dir);
// Reads one back (throws JsonInputError naming file:line:column; one of another kind at its "kind").
SassReport read_sass_report(const JsonDocument& doc);
SassReport read_sass_report(const std::string& text, const std::string& file);

// One (kernel, target) whose SASS differs between two releases (both disassembled).
struct SassChange {
  std::string kernel, family, target, before, after;  // the cells as the Markdown shows them
};
std::vector<SassChange> compare_sass(const SassReport& before, const SassReport& after);
// The matrix's section: per consecutive pair of `reports` (ordered by release), what changed,
// grouped by family and (before -> after), with a count and examples.
std::string sass_changes_markdown(const std::vector<SassReport>& reports);

}  // namespace ptxcts
