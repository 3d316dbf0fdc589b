// Which cases a run runs: every one, or those `--cases` names, the way dEQP's --deqp-case does. A case
// is named "KERNEL/CASE" (its kernel's catalog name, then the case's name), one spelling everywhere
// (`ptxcts list --cases`, the journal, the expectations); `--cases` takes globs of such names.
// May call: kinds/, plan/.
#pragma once

#include <string>
#include <vector>

#include "plan/suite.hpp"
#include "results/results.hpp"  // case_id: the one spelling of a case

namespace ptxcts {

// Every case of the suite, "KERNEL/CASE", in the suite's order: the list a release of the suite
// demands (what `ptxcts list --cases` writes, and what "conformant" means for this release).
std::vector<std::string> all_case_ids(const Suite& suite);

// Whether `id` matches one of `globs` (fnmatch); an empty list selects every case.
bool selected_case(const std::vector<std::string>& globs, const std::string& id);

// The globs (of `--cases`) that select no case of the suite.
std::vector<std::string> globs_matching_nothing(const Suite& suite, const std::vector<std::string>& globs);

}  // namespace ptxcts
