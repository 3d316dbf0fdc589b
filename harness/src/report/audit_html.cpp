#include "report/audit_html.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>
#include <vector>

#include "report/html_document.hpp"
#include "report/html_page_parts.hpp"

namespace ptxcts {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) { return j.at(key).get<std::string>(); }

// A row of strings, each in a cell; a cell named in `verdict_col` is colored by its value.
void row(pugi::xml_node tb, const json& j, std::initializer_list<const char*> keys, const char* verdict_key = "") {
  pugi::xml_node tr = el(tb, "tr", {{"data-family", j.contains("family") ? str(j, "family") : ""}});
  for (const char* k : keys) {
    // Optional keys (a spelling has no verdict) are empty cells.
    std::string s = !j.contains(k) ? "" : j[k].is_string() ? j[k].get<std::string>() : j[k].dump();
    el(tr, "td", {{"class", std::string_view(k) == verdict_key ? s : ""}}, s);
  }
}

void run_section(pugi::xml_node body, const json& a) {
  const json& run = a.at("run");
  el(body, "h1", {},
     fmt::format("ptxcts audit: CUDA {} (ptxas {}) against the documents", str(run, "cuda_release"),
                 str(run, "ptxas_version")));
  contents(body, {{"findings", "Findings"},
                  {"statements", "Statements"},
                  {"matrix-section", "Forms x targets"},
                  {"requirements", "Requirements"},
                  {"forms", "Hand-listed forms"},
                  {"counts", "Counts"}});
  pugi::xml_node s = section(body, "run", "The audit");
  pugi::xml_node tb = table(s, {});
  auto line = [&](std::string_view k, std::string_view v) {
    pugi::xml_node tr = el(tb, "tr");
    el(tr, "td", {}, k);
    el(tr, "td", {}, v);
  };
  std::vector<std::string> targets;
  for (auto const& t : run.at("targets")) targets.push_back(t.get<std::string>());
  line("Toolkit", fmt::format("CUDA {}, ptxas {}, PTX ISA {}", str(run, "cuda_release"), str(run, "ptxas_version"),
                              str(run, "ptx_isa")));
  line("Targets", fmt::format("{}", fmt::join(targets, " ")));
  line("Suite", fmt::format("ptxcts {}, commit {}", str(run, "suite_version"), str(run, "suite_commit")));
  line("Date", str(run, "date"));
  line("Host", str(run, "host"));
  line("GPU", "none needed: ptxas alone judges these statements");
  const json& sum = a.at("summary");
  el(s, "p", {{"class", "totals"}},
     fmt::format("{} probes; {} findings, {} not expected by the specs; ptxas failed on {}.", sum.at("probes").dump(),
                 sum.at("findings").dump(), sum.at("contradictions").dump(), sum.at("ptxas_failures").dump()));
}

constexpr std::pair<const char*, const char*> kClasses[] = {
    {"document-error", "Document errors: statements ptxas contradicts"},
    {"documents-disagree", "Documents disagree with each other"},
    {"toolkit-accepts", "The toolkit accepts what the documents forbid or do not list"},
    {"toolkit-rejects", "The toolkit rejects what the documents allow"}};

void findings_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "findings", "Findings");
  const json& findings = a.at("findings");
  if (findings.empty()) el(s, "p", {}, "No findings: ptxas agrees with every statement of the documents.");
  for (auto const& [cls, heading] : kClasses) {
    std::vector<const json*> of_class;
    for (auto const& f : findings)
      if (str(f, "class") == cls) of_class.push_back(&f);
    if (of_class.empty()) continue;
    el(s, "h3", {{"id", cls}}, fmt::format("{} ({})", heading, of_class.size()));
    for (const json* fp : of_class) {
      const json& f = *fp;
      bool known = !str(f, "known_discrepancy").empty();
      bool fails = f.at("fails_audit").get<bool>();
      pugi::xml_node d = el(s, "div",
                            {{"class", fails   ? "finding"
                                       : known ? "finding known"
                                               : "finding info"},
                             {"data-id", str(f, "id")}});
      pugi::xml_node h = el(d, "h3");
      el(h, "span", {{"class", fails ? "badge contradicted" : "badge known"}},
         fails   ? "not expected"
         : known ? "known"
                 : "shown");
      text(h, str(f, "subject"));
      el(d, "pre", {}, str(f, "words"));
      el(d, "p", {}, "Source: " + str(f, "source"));
      el(d, "p", {}, "ptxas: " + str(f, "observed"));
      std::vector<std::string> targets;
      for (auto const& t : f.at("targets")) targets.push_back(t.get<std::string>());
      el(d, "p", {},
         fmt::format("{} form(s), e.g. {} on {}", f.at("forms").dump(), str(f, "example"), fmt::join(targets, " ")));
      if (known) el(d, "p", {}, "Known discrepancy: " + str(f, "known_discrepancy"));
      el(d, "p", {{"class", "mono"}}, str(f, "id"));
    }
  }
}

void statements_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "statements", "Statements of the documents, with their verdicts");
  pugi::xml_node tb = table(s, {"Statement", "Kind", "Verdict", "Words", "Source", "Evidence", "Forms"});
  for (bool contradicted : {true, false})
    for (auto const& st : a.at("statements"))
      if ((str(st, "verdict") == "contradicted") == contradicted)
        row(tb, st, {"id", "kind", "verdict", "words", "source", "evidence", "forms"}, "verdict");
}

void matrix_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "matrix-section", "Forms x targets");
  el(s, "p", {},
     "Every combination the documents' syntax blocks spell, classified, and what ptxas made of it on each target. "
     "Type a form, or part of it, to find it.");
  legend(s, {{"accepted", "accepted"}, {"rejected", "rejected"}});
  std::vector<std::string> targets;
  for (auto const& t : a.at("run").at("targets")) targets.push_back(t.get<std::string>());
  std::set<std::string> families;
  for (auto const& g : a.at("grammar")) {
    auto block = str(g, "block");
    families.insert(block.substr(0, block.find('.')));
  }
  filter_box(s, "matrix", families);
  pugi::xml_node t = el(s, "table", {{"id", "matrix"}});
  pugi::xml_node hr = el(el(t, "thead"), "tr");
  el(hr, "th", {}, "Form");
  el(hr, "th", {}, "Documents");
  for (auto const& target : targets) el(hr, "th", {}, target);
  pugi::xml_node tb = el(t, "tbody");
  for (auto const& g : a.at("grammar")) {
    auto block = str(g, "block"), instruction = str(g, "instruction"), verdicts = str(g, "verdicts");
    pugi::xml_node tr = el(tb, "tr", {{"data-family", block.substr(0, block.find('.'))}, {"data-name", instruction}});
    el(tr, "td", {{"class", "form mono"}}, instruction);
    el(tr, "td", {}, str(g, "class"));
    for (std::size_t k = 0; k < targets.size(); ++k) {
      char v = k < verdicts.size() ? verdicts[k] : ' ';
      el(tr, "td",
         {{"class", v == '+'   ? "accepted"
                    : v == '-' ? "rejected"
                               : "untested"}},
         v == '+'   ? "acc"
         : v == '-' ? "rej"
                    : "");
    }
  }
}

void requirements_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "requirements", "Requirements (targets, PTX ISA versions)");
  pugi::xml_node tb = table(s, {"Variant", "Requirement", "Documented", "Source", "Verdict", "Evidence"});
  for (auto const& r : a.at("requirements"))
    row(tb, r, {"variant", "requirement", "documented", "source", "verdict", "evidence"}, "verdict");
}

void forms_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "forms", "Hand-listed forms (invalid and spellings)");
  pugi::xml_node tb = table(s, {"Name", "Kind", "Target", "Instruction", "Verdict", "Evidence"});
  for (auto const& f : a.at("forms"))
    row(tb, f, {"name", "kind", "target", "instruction", "verdict", "evidence"}, "verdict");
}

void counts_section(pugi::xml_node body, const json& a) {
  pugi::xml_node s = section(body, "counts", "Counts");
  el(s, "h3", {}, "The grammar, per block and class");
  pugi::xml_node tb = table(s, {"Block", "Document", "Class", "Forms", "Accepted per target"});
  for (auto const& g : a.at("grammar_counts")) {
    pugi::xml_node tr = el(tb, "tr");
    for (const char* k : {"block", "document", "class"}) el(tr, "td", {}, str(g, k));
    el(tr, "td", {}, g.at("forms").dump());
    std::string per;
    for (auto const& [t, n] : g.at("accepted_per_target").items()) per += fmt::format("{} {}; ", t, n.dump());
    el(tr, "td", {}, per);
  }
  el(s, "h3", {}, "The negative space, per block and kind");
  tb = table(s, {"Block", "Kind", "Documents", "Forms", "Accepted", "Rejected"});
  for (auto const& n : a.at("negative_space_counts"))
    row(tb, n, {"block", "kind", "documents", "forms", "accepted", "rejected"});
}

}  // namespace

std::string audit_html(const json& audit) {
  HtmlPage page(fmt::format("ptxcts audit CUDA {}", str(audit.at("run"), "cuda_release")));
  run_section(page.body, audit);
  findings_section(page.body, audit);
  statements_section(page.body, audit);
  matrix_section(page.body, audit);
  requirements_section(page.body, audit);
  forms_section(page.body, audit);
  counts_section(page.body, audit);
  return page.str();
}

}  // namespace ptxcts
