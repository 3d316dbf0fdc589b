#pragma once

#include <string>

namespace ptxcts {

// A Markdown table cell of the audit's and the matrix's reports: '|' would end the cell, a newline
// the row. (The run's Markdown escapes '<' too: report_markdown.cpp.)
std::string markdown_cell(std::string s);

}  // namespace ptxcts
