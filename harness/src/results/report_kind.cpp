#include "results/report_kind.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <climits>

namespace ptxcts {
namespace {

struct KindName {
  ReportKind kind;
  std::string_view name, noun;
};
constexpr std::array<KindName, 5> kKinds = {{
    {.kind = ReportKind::Run, .name = "run", .noun = "a run report"},
    {.kind = ReportKind::Audit, .name = "audit", .noun = "an audit report"},
    {.kind = ReportKind::ToolkitMatrix, .name = "toolkit-matrix", .noun = "a toolkit matrix"},
    {.kind = ReportKind::Sass, .name = "sass", .noun = "a SASS report"},
    {.kind = ReportKind::Fleet, .name = "fleet", .noun = "a fleet report"},
}};

const KindName& entry(ReportKind kind) {
  for (auto const& k : kKinds)
    if (k.kind == kind) return k;
  return kKinds.front();  // unreachable: every kind is listed
}

// The legacy rule (report_kind.hpp): the schema versions written before "kind".
constexpr std::int64_t kLastAuditWithoutKind = 3, kLastRunWithoutKind = 9;

ReportKind legacy_kind(const JsonNode& root) {
  if (root.has("fleet_schema_version")) return ReportKind::Fleet;
  if (!root.has("schema_version"))
    root.fail("missing key \"kind\" (run, audit, toolkit-matrix, sass or fleet): not a report of ptxcts");
  const JsonNode version = root.at("schema_version");
  const std::int64_t v = version.integer(INT32_MIN, INT32_MAX);
  if (v == 1) return ReportKind::ToolkitMatrix;
  if (v >= 2 && v <= kLastAuditWithoutKind) return ReportKind::Audit;
  if (v > kLastAuditWithoutKind && v <= kLastRunWithoutKind) return ReportKind::Run;
  version.fail(fmt::format(
      "a report without \"kind\" is one written before it: expected a schema_version of 1 (a toolkit matrix), 2 or 3 "
      "(an audit report) or 4 to 9 (a run report), got {}",
      v));
}

}  // namespace

std::string_view report_kind_name(ReportKind kind) { return entry(kind).name; }
std::string_view report_kind_noun(ReportKind kind) { return entry(kind).noun; }

ReportKind read_report_kind(const JsonDocument& doc) {
  const JsonNode root = doc.root();
  if (!root.has("kind")) {
    if (!root.json().is_object()) root.at("kind");  // says what the top level is instead of an object
    return legacy_kind(root);
  }
  const JsonNode kind = root.at("kind");
  const std::string said = kind.str();
  for (auto const& k : kKinds)
    if (k.name == said) return k.kind;
  std::vector<std::string_view> names;
  for (auto const& k : kKinds) names.push_back(k.name);
  kind.fail(fmt::format("expected one of {}, got \"{}\"", fmt::join(names, ", "), said));
}

void expect_report_kind(const JsonDocument& doc, ReportKind want) {
  if (!doc.root().has("kind")) return;
  if (const ReportKind said = read_report_kind(doc); said != want)
    doc.root().at("kind").fail(fmt::format("expected \"{}\" ({}), got \"{}\" ({})", report_kind_name(want),
                                           report_kind_noun(want), report_kind_name(said), report_kind_noun(said)));
}

}  // namespace ptxcts
