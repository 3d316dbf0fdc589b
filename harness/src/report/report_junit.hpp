// The JUnit XML report: one testsuite per family plus one for the claims, for CI dashboards.
#pragma once

#include <string>

#include "results/results.hpp"

namespace ptxcts {

std::string report_junit(const RunReport& report);

}  // namespace ptxcts
