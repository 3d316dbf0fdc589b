#include "emit/skeleton.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "util/file_text.hpp"

namespace ptxcts {

void fill_placeholder(std::string& text, const std::string& field, const std::string& value) {
  for (std::size_t p; (p = text.find(field)) != std::string::npos;) text.replace(p, field.size(), value);
}

std::string register_list(const std::string& prefix, int first, int count) {
  std::string out = "{";
  for (int r = 0; r < count; ++r) out += fmt::format("{}%{}{}", r ? ", " : "", prefix, first + r);
  return out + "}";
}

std::string fill_skeleton(const std::string& skeleton, const std::map<std::string, std::string>& fields) {
  std::string out;
  std::size_t pos = 0;
  std::set<std::string> used;
  while (pos < skeleton.size()) {
    std::size_t open = skeleton.find("{{", pos);
    if (open == std::string::npos) {
      out.append(skeleton, pos);
      break;
    }
    std::size_t close = skeleton.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("kernel skeleton: unclosed '{{'");
    std::string name = skeleton.substr(open + 2, close - open - 2);
    auto it = fields.find(name);
    if (it == fields.end()) throw std::runtime_error(fmt::format("kernel skeleton: unknown field {{{{{}}}}}", name));
    out.append(skeleton, pos, open - pos);
    // Multi-line fields end in a newline; the skeleton puts each on its own line.
    std::string value = it->second;
    if (!value.empty() && value.back() == '\n' && close + 2 < skeleton.size() && skeleton[close + 2] == '\n')
      value.pop_back();
    out += value;
    used.insert(name);
    pos = close + 2;
  }
  for (auto const& [name, value] : fields)
    if (!used.count(name)) throw std::runtime_error(fmt::format("kernel skeleton: field {{{{{}}}}} is missing", name));
  return out;
}

const std::string& KernelSkeletons::at(const std::string& file) const {
  auto it = by_file.find(file);
  if (it == by_file.end())
    throw std::runtime_error(fmt::format("kernel skeleton {} is missing from the kernels directory", file));
  return it->second;
}

KernelSkeletons read_kernel_skeletons(const std::filesystem::path& dir) {
  KernelSkeletons out;
  for (auto const& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().ends_with(".ptx.in"))
      out.by_file[e.path().filename().string()] = read_file_text(e.path(), "the kernel skeleton");
  return out;
}

}  // namespace ptxcts
