#include "report/pages/html_page_parts.hpp"

#include <fmt/format.h>

#include "report/pages/target_lists.hpp"
#include "results/outcome.hpp"

namespace ptxcts {

void contents(pugi::xml_node body, std::initializer_list<std::pair<const char*, const char*>> sections) {
  pugi::xml_node nav = el(body, "nav");
  for (auto const& [id, title] : sections) el(nav, "a", {{"href", std::string("#") + id}}, title);
}

void legend(pugi::xml_node parent, std::initializer_list<std::pair<const char*, const char*>> classes) {
  pugi::xml_node p = el(parent, "p", {{"class", "legend"}});
  for (auto const& [cls, meaning] : classes) el(p, "span", {{"class", fmt::format("badge {}", cls)}}, meaning);
}

void filter_box(pugi::xml_node parent, const char* target, const std::set<std::string>& families, const char* noun,
                bool by_outcome) {
  pugi::xml_node box = el(parent, "div", {{"class", "filters"}, {"data-for", target}, {"data-noun", noun}});
  el(box, "label", {}, "Family ");
  pugi::xml_node sel = el(box, "select", {{"aria-label", "family"}, {"class", "family"}});
  el(sel, "option", {{"value", ""}}, "all");
  for (auto const& f : families) el(sel, "option", {{"value", f}}, f);
  if (by_outcome) {
    el(box, "label", {}, " Outcome ");
    pugi::xml_node o = el(box, "select", {{"aria-label", "outcome"}, {"class", "outcome"}});
    el(o, "option", {{"value", ""}}, "any");
    el(o, "option", {{"value", "fail error crash timeout"}}, "needs action");
    for (Outcome k : kOutcomes) el(o, "option", {{"value", token(k)}}, label(k));
  }
  text(box, " ");
  el(box, "input", {{"type", "search"}, {"aria-label", "words"}, {"placeholder", "words of a form, e.g. x4 trans b16"}});
  text(box, " ");
  el(box, "span", {{"class", "shown"}});
}

void folded_paragraph(pugi::xml_node parent, std::string_view lead, const std::string& text_) {
  pugi::xml_node p = el(parent, "p", {}, lead);
  for (auto const& piece : fold_target_pieces(text_))
    if (piece.whole.empty()) text(p, piece.text);
    else el(p, "abbr", {{"class", "targets"}, {"title", piece.whole}}, piece.text);
}

void checked_list(pugi::xml_node parent, const std::vector<std::string>& checked) {
  if (checked.empty()) return;
  pugi::xml_node d = el(parent, "details");
  el(d, "summary", {}, fmt::format("rests on {} results or assemblies", checked.size()));
  el(d, "pre", {}, fmt::format("{}", fmt::join(checked, "\n")));
}

}  // namespace ptxcts
