#include "util/utf8_text.hpp"

#include <utf8cpp/utf8.h>

#include <iterator>

namespace ptxcts {

std::string valid_utf8(const std::string& bytes) {
  if (utf8::is_valid(bytes.begin(), bytes.end())) return bytes;
  std::string out;
  out.reserve(bytes.size() + 8);
  utf8::replace_invalid(bytes.begin(), bytes.end(), std::back_inserter(out), 0xFFFD);
  return out;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  auto bad = utf8::find_invalid(text.begin(), text.end());
  if (bad == text.end()) return std::nullopt;
  return static_cast<std::size_t>(bad - text.begin());
}

}  // namespace ptxcts
