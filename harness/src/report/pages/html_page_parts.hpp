// Pieces every page shares: the table of contents, a legend of colors, the filter box (family and
// text) that the page's script drives, and the collapsed list of what a verdict rests on.
#pragma once

#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/pages/html_document.hpp"

namespace ptxcts {

void contents(pugi::xml_node body, std::initializer_list<std::pair<const char*, const char*>> sections);
void legend(pugi::xml_node parent, std::initializer_list<std::pair<const char*, const char*>> classes);
// Filters the items (data-family, data-name; with `by_outcome`, data-outcomes) of the element with id
// `target`: the rows of its table's body, or its <details> children. "N `noun` shown" counts them; the
// case rows inside a shown item stay shown (but for those of another outcome, when one is chosen).
// The choices are kept in the page's address (#filter:family=...;outcome=...;q=...).
void filter_box(pugi::xml_node parent, const char* target, const std::set<std::string>& families,
                const char* noun = "rows", bool by_outcome = false);
// A paragraph of `lead` and `text` with its long target lists folded (target_lists.hpp), each
// fold keeping the whole list in its tooltip.
void folded_paragraph(pugi::xml_node parent, std::string_view lead, const std::string& text);
void checked_list(pugi::xml_node parent, const std::vector<std::string>& checked);

}  // namespace ptxcts
