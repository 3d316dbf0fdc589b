// The audit's page, audit-cuda<release>.html, from its JSON: the toolkit; the Findings by class
// (the documents' words, what ptxas did, on which targets); the documents' statements with their
// verdicts; the matrix of the grammar's forms x targets (accepted / rejected), filterable; the
// requirements, the hand-listed forms and the counts.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace ptxcts {

// Throws nlohmann::json::exception on a JSON that is not an audit report (a missing key, a wrong type).
std::string audit_html(const nlohmann::json& audit);

}  // namespace ptxcts
