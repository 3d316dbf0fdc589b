// Text from outside (a toolkit's messages, a child's output) as valid UTF-8: what is stored,
// cached or reported must dump as JSON, so invalid bytes become U+FFFD as they arrive.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

std::string valid_utf8(const std::string& bytes);

// The offset of the first byte that is not part of valid UTF-8, or nullopt where all is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

}  // namespace ptxcts
