// Limits and places for JSON texts read from files (reports, journals, manifests): what nlohmann
// does not say itself. Nesting is bounded so that every reader stays linear in its input, and a
// number too large for a double is placed at its line and column.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

inline constexpr int kMaxJsonDepth = 64;  // a report nests 5 deep; a corrupt or hostile one is refused early

// "LINE:COLUMN" (1-based) of a byte offset.
std::string json_line_column(std::string_view text, std::size_t offset);

// "FILE:LINE:COLUMN: what is wrong" where brackets nest deeper than max_depth (outside strings),
// else nullopt. One pass over the text.
std::optional<std::string> json_nesting_problem(std::string_view text, const std::string& file,
                                                int max_depth = kMaxJsonDepth);

// For nlohmann's out_of_range error 406 ("number overflow parsing '1e400'"): "FILE:LINE:COLUMN:
// number 1e400 does not fit a double", placed at the number's first appearance outside a string.
std::string json_number_overflow(std::string_view text, const std::string& file, const std::string& nlohmann_what);

}  // namespace ptxcts
