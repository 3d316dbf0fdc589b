#include "run/case_selection.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "kinds/kinds.hpp"

namespace ptxcts {

std::vector<std::string> all_case_ids(const Suite& suite) {
  std::vector<std::string> ids;
  for (auto const& k : suite.kernels)
    for (auto const& c : suite.specs.cases.cases)
      if (kind_of(k).takes(k, c)) ids.push_back(case_id(k.name, c.name));
  return ids;
}

bool selected_case(const std::vector<std::string>& globs, const std::string& id) {
  return globs.empty() ||
         std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return fnmatch(g.c_str(), id.c_str(), 0) == 0; });
}

std::vector<std::string> globs_matching_nothing(const Suite& suite, const std::vector<std::string>& globs) {
  const std::vector<std::string> ids = all_case_ids(suite);
  std::vector<std::string> none;
  for (auto const& g : globs)
    if (std::none_of(ids.begin(), ids.end(), [&](const std::string& id) { return selected_case({g}, id); }))
      none.push_back(g);
  return none;
}

}  // namespace ptxcts
