// `ptxcts diff --html OUT`: the diff as a page; every wmma fragment layout that changed between the
// two reports drawn as it is now, the registers whose element changed outlined (and what they held).
#pragma once

#include <string>

#include "report/run/report_diff.hpp"

namespace ptxcts {

std::string diff_html(const RunReport& before, const RunReport& after, const ReportDiff& diff);

}  // namespace ptxcts
