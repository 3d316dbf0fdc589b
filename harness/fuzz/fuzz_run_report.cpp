// libFuzzer target: the run report reader, parse_report_json, on arbitrary text. Success or a
// ReportError (report/run/report_json.hpp: "throws ReportError") is a clean outcome; anything else is
// a finding: a crash, a sanitizer report, a hang, another exception, unbounded memory. A report it
// accepts must also survive the round trip: written back with report_json and read again, it is
// read without error and writes the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "report/run/report_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptxcts::RunReport report;
  try {
    report = ptxcts::parse_report_json(text, "fuzz.json");
  } catch (const ptxcts::ReportError&) { return 0; }
  const std::string written = ptxcts::report_json(report);
  try {
    const std::string again = ptxcts::report_json(ptxcts::parse_report_json(written, "rewritten.json"));
    if (again != written) {
      std::fprintf(stderr, "fuzz_run_report: the report written back reads differently:\n%s\n---\n%s\n",
                   written.c_str(), again.c_str());
      std::abort();
    }
  } catch (const ptxcts::ReportError& e) {
    std::fprintf(stderr, "fuzz_run_report: a report it accepted, written back, is refused: %s\n%s\n", e.what(),
                 written.c_str());
    std::abort();
  }
  return 0;
}
