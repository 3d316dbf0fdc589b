// The toolkit matrix's page, toolkits.html, from toolkits.json as read back (report/
// toolkit_matrix_reader): the toolkits (a column per release: ptxas, PTX ISA, targets); what changed
// between consecutive releases (forms newly accepted or rejected, messages, targets, findings); then
// side by side, a colored column per toolkit: the findings, the documents' statements, the
// requirements, the hand-listed forms and the grammar's forms (filterable by family and text).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/toolkits/toolkit_matrix_reader.hpp"

namespace ptxcts {

std::string toolkit_matrix_html(const MatrixFile& m);

// The toolkits' verdict, first on the page and in the Markdown: of the toolkits (CUDA release, its
// findings the specs do not expect), how many agree with the specs and how many do not, parts that
// add up, e.g. "Does not agree with the specs: 6 toolkits: 5 as the specs expect, 1 with findings the
// specs do not expect (CUDA 12.0: 3)."
std::string toolkits_verdict_line(const std::vector<std::pair<std::string, std::size_t>>& unexpected_per_release);

}  // namespace ptxcts
