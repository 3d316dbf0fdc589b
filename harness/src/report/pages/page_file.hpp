// A page on disk: the page and its style sheet beside it (ptxcts.css), which the page links for a
// server whose Content-Security-Policy refuses inline style (Jenkins' default).
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

// Writes `page` at `path` (atomically) and the page's style sheet beside it, as ptxcts.css (where the
// file there is not that sheet already): every page of a folder links the one sheet.
void write_html_page(const std::filesystem::path& path, const std::string& page);

}  // namespace ptxcts
