// Pieces every page shares: the table of contents, a legend of colors, the filter box (family and
// text) that the page's script drives, and the collapsed list of what a verdict rests on.
#pragma once

#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "report/html_document.hpp"

namespace ptxcts {

void contents(pugi::xml_node body, std::initializer_list<std::pair<const char*, const char*>> sections);
void legend(pugi::xml_node parent, std::initializer_list<std::pair<const char*, const char*>> classes);
// Filters the rows (data-family, data-name) of the element with id `target`.
void filter_box(pugi::xml_node parent, const char* target, const std::set<std::string>& families);
void checked_list(pugi::xml_node parent, const std::vector<std::string>& checked);

}  // namespace ptxcts
