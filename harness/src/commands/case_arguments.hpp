// `ptxcts run --cases`: each argument a "KERNEL/CASE" glob, or "@FILE", a case list (one name or glob
// a line; blank lines and "#" comments ignored), such as `ptxcts list --cases` writes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ptxcts {

struct CaseListError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The globs the arguments name; throws CaseListError ("FILE:LINE:COLUMN: ..." or the argument) on a
// file that cannot be read (a folder, over 256 MiB) or names no case, or a line that is not KERNEL/CASE.
std::vector<std::string> case_globs(const std::vector<std::string>& arguments);

}  // namespace ptxcts
