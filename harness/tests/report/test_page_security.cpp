// Issue 30: toolkits.json's per-toolkit `report` was written into an href unchecked, so
// `javascript:...` ran when clicked on the toolkit page. Every URL of a page is now a fragment or a
// relative file name, or refused and written as text; every page carries a Content-Security-Policy
// that runs its own script (by hash) and nothing else.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <string>

#include "report/pages/html_document.hpp"
#include "report/pages/page_security.hpp"
#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"
#include "util/file_text.hpp"

using namespace ptxcts;

TEST(PageSecurity, OnlyFragmentsAndRelativeFileNamesAreLinks) {
  for (const char* ok : {"audit-cuda12.4.html", "gpu0/report.html", "#kernel-a", "a.html#frag", "a.html?x=1", "./a.html"})
    EXPECT_TRUE(page_url_allowed(ok)) << ok;
  for (const char* bad :
       {"javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "\x01javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "http://example.com/", "//example.com/x",
        "/etc/passwd", "../up.html", "a/../../b.html", "a\\b.html", "vbscript:x", ""})
    EXPECT_FALSE(page_url_allowed(bad)) << bad;
}

TEST(PageSecurity, AJavascriptReportInToolkitsJsonIsNoLink) {
  const std::string path = std::string(PTXCTS_SOURCE_DIR) + "/reports/toolkits.json.gz";
  std::string json = read_file_text(path);  // the committed one is .json.gz
  const std::string was = "\"report\": \"audit-cuda12.4.json\"";
  ASSERT_NE(json.find(was), std::string::npos);
  json.replace(json.find(was), was.size(), "\"report\": \"javascript:alert(document.domain)\"");
  const std::string html = toolkit_matrix_html(parse_matrix_file(json, "toolkits.json"));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  for (auto a : doc.select_nodes("//*[@href]"))
    EXPECT_EQ(std::string(a.node().attribute("href").value()).find(':'), std::string::npos)
        << a.node().attribute("href").value();
  // The page name made of it ("javascript:alert(document.html"), as text with the note.
  EXPECT_NE(html.find("<a>javascript:alert(document.html (link refused: 'javascript:alert(document.html' is not a "
                      "relative file name)</a>"),
            std::string::npos);
  EXPECT_TRUE(doc.select_node("//a[@href='audit-cuda12.0.html']"));  // the others stay links
}

TEST(PageSecurity, EveryPageAllowsItsOwnScriptByHashAndNothingElse) {
  HtmlPage page("t");
  el(page.body, "a", {{"href", "javascript:alert(1)"}, {"onclick", "alert(1)"}}, "x");
  const std::string html = page.str();
  const std::size_t open = html.find("<script>") + 8, close = html.find("</script>");
  const std::string script = html.substr(open, close - open);  // as the browser reads it
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(html.substr(html.find("<html")).c_str()));
  const std::string csp =
      doc.select_node("//meta[@http-equiv='Content-Security-Policy']").node().attribute("content").value();
  EXPECT_EQ(csp, content_security_policy(script));
  EXPECT_EQ(csp.rfind("default-src 'none'; script-src 'sha256-", 0), 0u) << csp;
  // Inline styles and the sheet beside the page (ptxcts.css, linked), never scripts.
  EXPECT_NE(csp.find("; style-src 'self' 'unsafe-inline';"), std::string::npos) << csp;
  EXPECT_TRUE(doc.select_node("//head/link[@rel='stylesheet'][@href='ptxcts.css']"));
  EXPECT_EQ(csp.find("script-src 'unsafe"), std::string::npos) << csp;
  // The policy precedes the script it governs.
  EXPECT_LT(html.find("Content-Security-Policy"), html.find("<script>"));
}
