// The per-section sentence counts (results/sentence_counts) as every report shows them: a Markdown
// table and a page section, a row per section of the manual and a row of their sum, then why the
// sentences not judged are not. `elsewhere` names what the report's "elsewhere" column counts: in
// an audit, sentences the GPU judges in a run; in a run, sentences whose statements it left out.
#pragma once

#include <pugixml.hpp>
#include <string>
#include <vector>

#include "results/sentence_counts.hpp"

namespace ptxcts {

// What "elsewhere" counts, as each report heads its column.
constexpr const char* kAuditElsewhere = "Not judged here (the GPU's, or nothing to ask)";
constexpr const char* kRunElsewhere = "Not judged in this run";

std::string sentence_counts_markdown(const std::vector<SentenceCount>& counts, const char* elsewhere);
// The section is there with none (a report written before the inventory says so), for the contents' link.
void sentence_counts_section(pugi::xml_node body, const std::vector<SentenceCount>& counts, const char* elsewhere);

}  // namespace ptxcts
