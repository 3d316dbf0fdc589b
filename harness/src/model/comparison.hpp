// What the host concludes from one launch, for any kind: how many elements differ from the
// reference model and how (each line as a kernel engineer reads it: warp, lane, register, element,
// matrix position), and what else the launch showed.
// May call: nothing (data only).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ptxcts {

struct Comparison {
  int mismatches = 0;
  std::vector<std::string> diff;  // the first `max_lines` differences
};

struct CaseOutcome {
  Comparison comparison;
  std::string observed_layout;             // where the device put each element ("" if not told)
  std::optional<bool> roundtrip_identity;  // round trips: the stored rows equal the loaded ones
  // Where the documents allow a range of results (or leave the result unspecified), which the device
  // returned, in words: an observation, never a failure ("" if none).
  std::string observed;
};

}  // namespace ptxcts
