// The Markdown report: the run for people to read, claims first, then results per family.
#pragma once

#include <string>

#include "results/results.hpp"

namespace ptxcts {

std::string report_markdown(const RunReport& report);

}  // namespace ptxcts
