#include "report/audit_report.hpp"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"

namespace ptxcts {
namespace {

constexpr int kAuditSchemaVersion = 1;

std::string cell(std::string s) {
  for (std::size_t p = 0; (p = s.find_first_of("|\n", p)) != std::string::npos; p += 2)
    s.replace(p, 1, s[p] == '|' ? "\\|" : "<br>");
  return s;
}

const char* kind_name(AuditForm::Kind k) { return k == AuditForm::Kind::Invalid ? "invalid" : "spelling"; }

}  // namespace

std::string audit_json(const Audit& audit, const Suite& suite, const Catalog& cat, const AuditRun& run) {
  nlohmann::ordered_json j;
  j["schema_version"] = kAuditSchemaVersion;
  j["run"] = {{"cuda_release", cat.cuda_release},
              {"ptxas_version", cat.ptxas_version},
              {"ptx_isa", cat.toolkit_ptx.str()},
              {"targets", cat.targets},
              {"host", run.host},
              {"date", run.date},
              {"suite_version", run.suite_version},
              {"suite_commit", run.suite_commit}};
  int accepted = 0;
  for (auto const& a : cat.assemblies) accepted += a.accepted;
  j["summary"] = {{"assemblies", cat.assemblies.size()},
                  {"accepted", accepted},
                  {"requirements", audit.requirements.size()},
                  {"contradictions", audit.contradictions()}};
  // Where ptxas failed (no verdict), an "error" beside "accepted" (false) says how; absent otherwise.
  const auto errors = cat.errors();
  if (!errors.empty()) j["summary"]["ptxas_failures"] = errors.size();
  auto& reqs = j["requirements"] = nlohmann::ordered_json::array();
  for (auto const& r : audit.requirements)
    reqs.push_back({{"variant", r.variant},
                    {"family", r.family},
                    {"requirement", r.requirement},
                    {"documented", r.documented},
                    {"source", r.source},
                    {"verdict", to_string(r.verdict)},
                    {"evidence", r.evidence},
                    {"mismatches", r.mismatches},
                    {"known_discrepancies", r.known}});
  auto& forms = j["forms"] = nlohmann::ordered_json::array();
  for (auto const& f : audit.forms) {
    nlohmann::ordered_json o = {{"name", f.form->name},
                                {"kind", kind_name(f.form->kind)},
                                {"family", f.form->family},
                                {"target", f.form->target},
                                {"source", f.form->source}};
    if (f.form->kind == AuditForm::Kind::Invalid) {
      o["reason"] = f.form->reason;
      o["diagnostic_expected"] = f.form->diagnostic;
      o["diagnostic_seen"] = f.diagnostic_seen;
      o["verdict"] = to_string(f.verdict);
      o["known_discrepancy"] = f.known ? f.known->source : "";
    }
    if (f.assembly) {
      o["instruction"] = f.assembly->instruction;
      o["ptx_isa"] = f.assembly->ptx.str();
      o["accepted"] = f.assembly->accepted;
      o["message"] = f.assembly->message;
      if (!f.assembly->error.empty()) o["error"] = f.assembly->error;
    }
    o["evidence"] = f.evidence;
    forms.push_back(o);
  }
  auto& as = j["assemblies"] = nlohmann::ordered_json::array();
  for (auto const& a : cat.assemblies) {
    const KernelPlan* k = suite.find_kernel(a.kernel);
    nlohmann::ordered_json o = {{"kernel", a.kernel},           {"variant", k ? k->steps.back()->variant().name : ""},
                                {"instruction", a.instruction}, {"target", a.target},
                                {"ptx_isa", a.ptx.str()},       {"attempted", a.attempted},
                                {"accepted", a.accepted},       {"message", a.message}};
    if (!a.error.empty()) o["error"] = a.error;
    as.push_back(o);
  }
  auto& ps = j["version_probes"] = nlohmann::ordered_json::array();
  for (auto const& p : cat.probes) {
    nlohmann::ordered_json o = {{"kernel", p.kernel},     {"target", p.target},
                                {"ptx_isa", p.ptx.str()}, {"documented_minimum", p.documented.str()},
                                {"accepted", p.accepted}, {"message", p.message}};
    if (!p.error.empty()) o["error"] = p.error;
    ps.push_back(o);
  }
  return j.dump(1) + "\n";
}

std::string audit_markdown(const Audit& audit, const Suite& suite, const Catalog& cat, const AuditRun& run) {
  std::string md = fmt::format("# ptxcts audit: CUDA {} (ptxas {}, PTX ISA {})\n\n", cat.cuda_release,
                               cat.ptxas_version, cat.toolkit_ptx.str());
  md += fmt::format("Written by `ptxcts audit` on {} at {} (ptxcts {}, commit {}). Targets: {}.\n\n", run.host,
                    run.date, run.suite_version, run.suite_commit, fmt::join(cat.targets, ", "));
  md += "## Findings\n\n";
  int findings = 0;
  for (auto const& r : audit.requirements)
    if (r.verdict == Verdict::Contradicted && !r.explained()) {
      ++findings;
      md += fmt::format("- **{} {}**: documented {} ({}). {}\n", r.variant, r.requirement, r.documented, r.source,
                        r.evidence);
      for (std::size_t k = 0; k < r.mismatches.size() && k < 10; ++k) md += fmt::format("  - {}\n", r.mismatches[k]);
      if (r.mismatches.size() > 10)
        md += fmt::format("  - ... and {} more (see the JSON report)\n", r.mismatches.size() - 10);
    }
  for (auto const& f : audit.forms)
    if (f.verdict == Verdict::Contradicted && !f.known) {
      ++findings;
      md +=
          fmt::format("- **{}** (`{}`): {} Documented: {} ({}).\n", f.form->name,
                      f.assembly ? f.assembly->instruction : f.form->text, f.evidence, f.form->reason, f.form->source);
    }
  if (!findings)
    md += "None: every documented requirement and every documented-invalid form agrees with this toolkit.\n";

  md +=
      "\n## Known discrepancies\n\nRecorded in the specs (`known_discrepancies:`): still reported, they do not fail "
      "the audit.\n\n";
  int known = 0;
  for (auto const& r : audit.requirements)
    for (auto const& k : r.known) md += fmt::format("- {} {}: {}\n", r.variant, r.requirement, k), ++known;
  for (auto const& f : audit.forms)
    if (f.known) md += fmt::format("- {}: {} [known: {}]\n", f.form->name, f.evidence, f.known->source), ++known;
  for (auto const* k : audit.unused_known)
    md += fmt::format("- no longer observed: {} ({})\n", k->form.empty() ? k->variant + " on " + k->target : k->form,
                      k->source),
        ++known;
  if (!known) md += "None recorded or observed.\n";

  md +=
      "\n## Documented requirements\n\n| Variant | Requirement | Documented | Verdict | Evidence "
      "|\n|---|---|---|---|---|\n";
  for (auto const& r : audit.requirements)
    md += fmt::format("| {} | {} | {} | {} | {} |\n", r.variant, r.requirement, cell(r.documented),
                      to_string(r.verdict), cell(r.evidence));

  md +=
      "\n## Documented-invalid forms\n\n| Form | Instruction | Target | Expected | Seen | Verdict | Evidence "
      "|\n|---|---|---|---|---|---|---|\n";
  for (auto const& f : audit.forms)
    if (f.form->kind == AuditForm::Kind::Invalid)
      md += fmt::format("| {} | `{}` | {} | {} | {} | {} | {} |\n", f.form->name,
                        f.assembly ? cell(f.assembly->instruction) : "", f.form->target, f.form->diagnostic,
                        f.diagnostic_seen, to_string(f.verdict), cell(f.evidence));

  md +=
      "\n## Observations: undocumented spellings\n\n| Form | Instruction | Target | ptxas | Source "
      "|\n|---|---|---|---|---|\n";
  for (auto const& f : audit.forms)
    if (f.form->kind == AuditForm::Kind::Spelling)
      md += fmt::format("| {} | `{}` | {} | {} | {} |\n", f.form->name, f.assembly ? cell(f.assembly->instruction) : "",
                        f.form->target,
                        !f.assembly                  ? "not assembled"
                        : !f.assembly->error.empty() ? "ptxas failed"
                        : f.assembly->accepted       ? "accepted"
                                                     : "rejected",
                        cell(f.form->source));

  // The matrix: one row per form (instance), one column per target.
  md +=
      "\n## Assemblies: form x target\n\n`+` accepted, `-` rejected, `!` ptxas failed (no verdict), `.` beyond this "
      "toolkit's PTX ISA. Messages are in the JSON report.\n";
  std::map<std::string, std::map<std::string, const Assembly*>> grid;
  for (auto const& a : cat.assemblies) grid[a.kernel][a.target] = &a;
  std::string family;
  for (auto const& k : suite.kernels) {
    if (k.family != family) {
      family = k.family;
      md += fmt::format("\n### {}\n\n| Form |", family);
      for (auto const& t : cat.targets) md += fmt::format(" {} |", t.substr(3));
      md += "\n|---|";
      for (std::size_t n = 0; n < cat.targets.size(); ++n) md += "---|";
      md += "\n";
    }
    std::string label;
    for (auto const* s : k.steps) label += (label.empty() ? "" : " ; ") + s->id();
    md += fmt::format("| {} |", cell(label));
    for (auto const& t : cat.targets) {
      const Assembly* a = grid[k.name][t];
      md += !a ? " |" : !a->attempted ? " . |" : !a->error.empty() ? " ! |" : a->accepted ? " + |" : " - |";
    }
    md += "\n";
  }
  return md;
}

std::filesystem::path write_audit_reports(const Audit& audit, const Suite& suite, const Catalog& cat,
                                          const AuditRun& run, const std::filesystem::path& dir) {
  std::string base = "audit-cuda" + cat.cuda_release;
  for (char& c : base)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) c = '-';
  write_file_atomically(dir / (base + ".md"), audit_markdown(audit, suite, cat, run));
  write_file_atomically(dir / (base + ".json"), audit_json(audit, suite, cat, run));
  return dir / (base + ".json");
}

}  // namespace ptxcts
