// libFuzzer target: the journal reader, read_journal, on an arbitrary file (it reads a path: the
// input goes to one temporary file per process, rewritten for each input). Success or a
// ReportError (run/journal.hpp: "any other bad line is a ReportError") is a clean outcome; anything
// else is a finding. Every result it reads must survive the round trip through the journal's
// own line format (case_result_json_line, parse_case_result_line).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "results/report_parts.hpp"
#include "run/journal.hpp"

namespace {
std::filesystem::path g_path;

// FINDINGS.md F2 (open): a number too large for a double ("1e999") makes nlohmann's parser throw
// json::out_of_range 406, which the reader lets out instead of a ReportError. Until it is fixed,
// that one exception is taken as a known finding, so that the bounded run in CI fuzzes the rest.
// Remove this when F2 is fixed.
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_path = std::filesystem::temp_directory_path() / ("ptxcts-fuzz-journal-" + std::to_string(::getpid()) + ".jsonl");
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove(g_path, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(g_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) {
      std::fprintf(stderr, "fuzz_journal: cannot write %s\n", g_path.c_str());
      std::abort();
    }
  }
  std::vector<ptxcts::CaseResult> results;
  try {
    results = ptxcts::read_journal(g_path);
  } catch (const ptxcts::ReportError&) { return 0; }
  for (auto const& r : results) {
    const std::string line = ptxcts::case_result_json_line(r);
    try {
      const std::string again = ptxcts::case_result_json_line(ptxcts::parse_case_result_line(line, "rewritten", 1));
      if (again != line) {
        std::fprintf(stderr, "fuzz_journal: a result written back reads differently:\n%s\n%s\n", line.c_str(),
                     again.c_str());
        std::abort();
      }
    } catch (const ptxcts::ReportError& e) {
      std::fprintf(stderr, "fuzz_journal: a result it read, written back, is refused: %s\n%s\n", e.what(),
                   line.c_str());
      std::abort();
    }
  }
  return 0;
}
