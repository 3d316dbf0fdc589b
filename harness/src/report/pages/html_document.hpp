// The pages people read (a run, an audit, a diff, a fleet) are built as a DOM with pugixml and saved
// once: every text and attribute is escaped by the library, never by hand. The saved file is
// well-formed XML (a test parses it back) and valid HTML: non-empty tags throughout, the style and
// script inside CDATA sections the HTML parser reads as comments. Self-contained: nothing fetched
// that it needs; its sheet is also linked, as ptxcts.css beside it (write_html_page writes it), for
// a server whose Content-Security-Policy refuses inline style (Jenkins' default) but allows 'self'
// (report/pages/page_file writes the two).
#pragma once

#include <pugixml.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace ptxcts {

using Attrs = std::initializer_list<std::pair<const char*, std::string_view>>;

// Appends <tag attrs...>text</tag> to `parent` and returns it.
pugi::xml_node el(pugi::xml_node parent, const char* tag, Attrs attrs = {}, std::string_view text = {});
pugi::xml_node text(pugi::xml_node parent, std::string_view s);  // a text node

// A page: <html><head> with the title, the shared style and script </head><body>.
struct HtmlPage {
  pugi::xml_document doc;
  pugi::xml_node head, body;
  explicit HtmlPage(std::string_view title);
  std::string str() const;  // "<!DOCTYPE html>" and the document, unindented
};

// A section with an id (the table of contents links to it) and its heading.
pugi::xml_node section(pugi::xml_node body, const char* id, std::string_view heading);

// A box that scrolls sideways what is wider than the page (a wide table), so that the page never
// is; `tall`: it scrolls up and down too, at most most of the window high, so that a long table's
// sticky headings stay in sight.
pugi::xml_node scroll_box(pugi::xml_node parent, bool tall = false);

// A table, in a scroll_box, with these column headings (none: a table of names and values); returns its <tbody>.
pugi::xml_node table(pugi::xml_node parent, std::initializer_list<const char*> headings, const char* cls = "");

}  // namespace ptxcts
