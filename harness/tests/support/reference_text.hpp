// The reference text as the quote tests read it: a file's bytes, and the text without markdown's
// marks (images, link targets, `code`, \_ escapes, table bars and rules) with every run of blanks one
// space, the same as harness/scripts/quoted_excerpts.py's `norm` (test_quoted_words, test_sentences).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ptxcts::test {

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string norm(const std::string& t) {
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool image = t[i] == '!' && i + 1 < t.size() && t[i + 1] == '[';
    if (t[i] == '[' || image) {
      const std::size_t open = image ? i + 1 : i, close = t.find(']', open);
      if (close != std::string::npos && close + 1 < t.size() && t[close + 1] == '(') {
        const std::size_t end = t.find(')', close);
        if (end != std::string::npos) {
          if (!image) s += t.substr(open + 1, close - open - 1);
          i = end;
          continue;
        }
      }
    }
    if (t[i] == '\\' && i + 1 < t.size() && (t[i + 1] == '_' || t[i + 1] == '*')) continue;
    if (t[i] == '`') continue;
    s += t[i] == '|' ? ' ' : t[i];
  }
  std::string out;
  std::istringstream words(s);
  for (std::string w; words >> w;)
    if (w.size() < 3 || w.find_first_not_of('-') != std::string::npos) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace ptxcts::test
