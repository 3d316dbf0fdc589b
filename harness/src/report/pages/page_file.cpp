#include "report/pages/page_file.hpp"

#include <optional>
#include <string_view>

#include "report/pages/html_assets.hpp"
#include "util/atomic_file.hpp"
#include "util/file_text.hpp"

namespace ptxcts {

void write_html_page(const std::filesystem::path& path, const std::string& page) {
  const std::filesystem::path sheet = path.parent_path() / kPageStyleFile;
  std::optional<std::string> now;
  try {
    now = try_read_file_text(sheet, 1 << 20);
  } catch (const std::exception&) {}  // larger than any sheet: written over
  if (now != std::string_view(kPageStyle)) write_file_atomically(sheet, kPageStyle);
  write_file_atomically(path, page);
}

}  // namespace ptxcts
