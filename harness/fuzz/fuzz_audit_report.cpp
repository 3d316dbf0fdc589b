// libFuzzer target: the audit report reader, parse_audit_report, on arbitrary text. Success or a
// JsonInputError (report/audit/audit_report_reader.hpp) is a clean outcome; anything else is a finding: a
// crash, a sanitizer report, a hang, another exception, unbounded memory. A report it accepts must
// also hold up in the matrix: compared with itself, nothing changed.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/audit/audit_report_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptxcts::AuditSummary audit;
  try {
    audit = ptxcts::parse_audit_report(text, "fuzz.json");
  } catch (const ptxcts::JsonInputError&) { return 0; }
  const ptxcts::PairChanges same = ptxcts::compare_audits(audit, audit);
  if (!same.changes.empty()) {
    std::fprintf(stderr, "fuzz_audit_report: an audit compared with itself changed: %s: %s -> %s\n",
                 same.changes.front().what.c_str(), same.changes.front().before.c_str(),
                 same.changes.front().after.c_str());
    std::abort();
  }
  return 0;
}
