#include "report/pages/html_document.hpp"

#include <sstream>

#include "report/pages/html_assets.hpp"
#include "report/pages/page_security.hpp"

namespace ptxcts {

pugi::xml_node el(pugi::xml_node parent, const char* tag, Attrs attrs, std::string_view s) {
  pugi::xml_node n = parent.append_child(tag);
  std::string refused;
  for (auto const& [k, v] : attrs) {
    if (url_attribute(k) && !page_url_allowed(v)) {  // never a link that could run script or leave the folder
      refused = v;
      continue;
    }
    n.append_attribute(k).set_value(std::string(v).c_str());
  }
  if (!s.empty()) text(n, s);
  if (!refused.empty()) text(n, " (link refused: '" + refused + "' is not a relative file name)");
  return n;
}

pugi::xml_node text(pugi::xml_node parent, std::string_view s) {
  pugi::xml_node t = parent.append_child(pugi::node_pcdata);
  t.set_value(std::string(s).c_str());
  return t;
}

namespace {

// <style>/*<![CDATA[*/ ... /*]]>*/</style>: the HTML parser sees comments around the CSS, an XML
// parser a CDATA section, and neither needs '<' or '&' escaped inside.
// Returns the element's text as the HTML parser reads it.
std::string raw_block(pugi::xml_node parent, const char* tag, const char* open, const char* body, const char* close) {
  pugi::xml_node n = parent.append_child(tag);
  const std::string inside = std::string(close) + "\n" + body + "\n" + open;
  n.append_child(pugi::node_pcdata).set_value(open);
  n.append_child(pugi::node_cdata).set_value(inside.c_str());
  n.append_child(pugi::node_pcdata).set_value(close);
  return std::string(open) + "<![CDATA[" + inside + "]]>" + close;
}

}  // namespace

HtmlPage::HtmlPage(std::string_view title) {
  pugi::xml_node html = doc.append_child("html");
  html.append_attribute("lang").set_value("en");
  head = el(html, "head");
  el(head, "meta", {{"charset", "utf-8"}});
  // Before anything it governs; its script hash filled in once the script is placed.
  pugi::xml_node policy = el(head, "meta", {{"http-equiv", "Content-Security-Policy"}});
  el(head, "meta", {{"name", "viewport"}, {"content", "width=device-width, initial-scale=1"}});
  el(head, "title", {}, title);
  // The sheet twice: as the file beside the page (what a server whose policy refuses inline style,
  // Jenkins' default, still applies) and inline after it (the page complete on its own, and the
  // winner of any rule an older sheet beside it gives otherwise).
  el(head, "link", {{"rel", "stylesheet"}, {"href", kPageStyleFile}});
  raw_block(head, "style", "/*", kPageStyle, "*/");
  // The script first, so that its error recorder sees every later error; it acts on DOMContentLoaded.
  const std::string script = raw_block(head, "script", "//", kPageScript, "//");
  policy.append_attribute("content").set_value(content_security_policy(script).c_str());
  body = el(html, "body");
}

std::string HtmlPage::str() const {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n";
  // No empty-element tags: the HTML parser would read <div/> as an open <div>.
  doc.save(out, "", pugi::format_raw | pugi::format_no_declaration | pugi::format_no_empty_element_tags);
  out << "\n";
  return out.str();
}

pugi::xml_node section(pugi::xml_node body, const char* id, std::string_view heading) {
  pugi::xml_node s = el(body, "section", {{"id", id}});
  el(s, "h2", {}, heading);
  return s;
}

pugi::xml_node scroll_box(pugi::xml_node parent, bool tall) {
  return el(parent, "div", {{"class", tall ? "scroll tall" : "scroll"}});
}

pugi::xml_node table(pugi::xml_node parent, std::initializer_list<const char*> headings, const char* cls) {
  pugi::xml_node t = el(scroll_box(parent), "table", {{"class", cls}});
  if (headings.size()) {
    pugi::xml_node tr = el(el(t, "thead"), "tr");
    for (const char* h : headings) el(tr, "th", {}, h);
  }
  return el(t, "tbody");
}

}  // namespace ptxcts
