// The toolkit matrix's page, toolkits.html, from toolkits.json as read back (report/
// toolkit_matrix_reader): the toolkits (a column per release: ptxas, PTX ISA, targets); what changed
// between consecutive releases (forms newly accepted or rejected, messages, targets, findings); then
// side by side, a colored column per toolkit: the findings, the documents' statements, the
// requirements, the hand-listed forms and the grammar's forms (filterable by family and text).
#pragma once

#include <string>

#include "report/toolkit_matrix_reader.hpp"

namespace ptxcts {

std::string toolkit_matrix_html(const MatrixFile& m);

}  // namespace ptxcts
