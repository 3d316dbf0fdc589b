// `ptxcts history import FILE|DIR...`: run and audit reports of every schema the readers accept
// (report/report_reader), and the run reports of a fleet's folders, into the history; idempotent (a
// report already there is one run still). A folder is searched for *.json and *.json.gz; a file there
// that is no report of a kind the history keeps (a toolkit matrix, a SASS report, a fleet's merged
// JSON, a JSON Schema) is counted and skipped; a named file that is not a run or audit report, or a
// report that cannot be read, is one message on stderr, and the import goes on (exit 2 at the end).
#pragma once

#include <string>
#include <vector>

namespace ptxcts {

int import_reports(const std::string& location, const std::vector<std::string>& inputs, bool json);

}  // namespace ptxcts
