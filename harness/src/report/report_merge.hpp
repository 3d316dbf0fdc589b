// `ptxcts merge REPORT...`: a fleet view of run reports from many machines (GPU x driver x
// toolkit): per case, claim and observed wmma layout, a column per machine, rows that differ first.
#pragma once

#include <string>
#include <vector>

#include "results/results.hpp"

namespace ptxcts {

struct FleetRow {
  std::string what;                 // as `ptxcts diff` names it: "KERNEL / CASE", "claim ID", "layout KERNEL / CASE"
  std::vector<std::string> values;  // per machine: status, verdict or layout name; "" where absent
  bool differs = false;             // not the same on every machine
};

struct Fleet {
  std::vector<std::string> machines;  // report names (report_basename), in the order given
  std::vector<RunInfo> runs;
  std::vector<FleetRow> rows;        // those that differ first, then in the first report's order
  std::vector<std::string> layouts;  // distinct observed layouts; a layout value "L3" is layouts[3]
  int differing() const;
};

Fleet merge_reports(const std::vector<RunReport>& reports);
std::string fleet_json(const Fleet& fleet);
std::string fleet_html(const Fleet& fleet);

}  // namespace ptxcts
