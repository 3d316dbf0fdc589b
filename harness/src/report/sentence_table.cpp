#include "report/sentence_table.hpp"

#include <fmt/format.h>

#include "report/markdown_cell.hpp"
#include "report/pages/html_document.hpp"

namespace ptxcts {
namespace {

constexpr const char* kIntro =
    "Every sentence of the manual's sections on these instructions (specs/sentences.yaml): the checkable ones (all "
    "but the descriptive), how many this report judged (by ptxas, by the GPU), and why the rest are not: not "
    "judgeable on any machine, or not yet judged (the gap).";

std::vector<std::string> cells(const SentenceCount& c) {
  return {c.section == "all" ? "every section" : c.source,
          fmt::format("{}", c.sentences),
          fmt::format("{}", c.checkable()),
          fmt::format("{}", c.judged),
          fmt::format("{}", c.by_ptxas),
          fmt::format("{}", c.by_gpu),
          fmt::format("{}", c.elsewhere),
          fmt::format("{}", c.not_judgeable),
          fmt::format("{}", c.not_yet)};
}

}  // namespace

std::string sentence_counts_markdown(const std::vector<SentenceCount>& counts, const char* elsewhere) {
  if (counts.empty()) return "";
  std::string md = fmt::format("\n## Sentences judged, per section\n\n{}\n\n", kIntro);
  md += fmt::format("| Section | Sentences | Checkable | Judged | by ptxas | by the GPU | {} | Not judgeable | "
                    "Not yet judged |\n|---|---|---|---|---|---|---|---|---|\n",
                    elsewhere);
  std::vector<SentenceCount> rows = counts;
  rows.push_back(sentence_total(counts));
  for (auto const& c : rows) {
    std::string line = "|";
    for (auto const& cell : cells(c)) line += " " + markdown_cell(cell) + " |";
    md += line + "\n";
  }
  const SentenceCount t = sentence_total(counts);
  md += "\nWhy the sentences not judged are not (sentences):\n\n";
  for (auto const& [why, n] : t.reasons) md += fmt::format("- {}: {}\n", markdown_cell(why), n);
  return md;
}

void sentence_counts_section(pugi::xml_node body, const std::vector<SentenceCount>& counts, const char* elsewhere) {
  pugi::xml_node s = section(body, "sentences", "Sentences judged, per section");
  if (counts.empty()) {
    el(s, "p", {}, "None counted: this report was written before the sentence inventory (specs/sentences.yaml).");
    return;
  }
  el(s, "p", {}, kIntro);
  pugi::xml_node tb = table(s, {"Section", "Sentences", "Checkable", "Judged", "by ptxas", "by the GPU", elsewhere,
                                "Not judgeable", "Not yet judged"});
  std::vector<SentenceCount> rows = counts;
  rows.push_back(sentence_total(counts));
  for (auto const& c : rows) {
    pugi::xml_node tr = el(tb, "tr");
    for (auto const& cell : cells(c)) el(tr, "td", {}, cell);
  }
  el(s, "p", {}, "Why the sentences not judged are not (sentences):");
  pugi::xml_node ul = el(s, "ul");
  for (auto const& [why, n] : sentence_total(counts).reasons) el(ul, "li", {}, fmt::format("{}: {}", why, n));
}

}  // namespace ptxcts
