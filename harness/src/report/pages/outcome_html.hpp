// The outcome vocabulary on a page: the verdict line first (coloured by its tone: green conforms,
// red needs action, grey nothing checked), and the tally of outcomes, zero counts grey, red only for
// what needs action, fault-case observations in a neutral colour.
#pragma once

#include <vector>

#include "report/pages/html_document.hpp"
#include "results/outcome.hpp"

namespace ptxcts {

void verdict_banner(pugi::xml_node parent, const RunReport& report);
void outcome_tally(pugi::xml_node parent, const Tally& t);

}  // namespace ptxcts
