// libFuzzer target: the toolkit matrix reader, parse_matrix_file, on arbitrary text. Success or a
// JsonInputError (report/toolkits/toolkit_matrix_reader.hpp) is a clean outcome; anything else is a finding: a
// crash, a sanitizer report, a hang, another exception, unbounded memory. A matrix it accepts must
// also make its page (report/toolkits/toolkit_matrix_html).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "report/toolkits/toolkit_matrix_html.hpp"
#include "report/toolkits/toolkit_matrix_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptxcts::MatrixFile m;
  try {
    m = ptxcts::parse_matrix_file(text, "fuzz.json");
  } catch (const ptxcts::JsonInputError&) { return 0; }
  if (ptxcts::toolkit_matrix_html(m).find("</html>") == std::string::npos) {
    std::fprintf(stderr, "fuzz_toolkit_matrix: an accepted matrix made no whole page\n");
    std::abort();
  }
  return 0;
}
