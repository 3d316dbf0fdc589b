// Text from outside (a toolkit's messages, a child's output) as valid UTF-8: what is stored,
// cached or reported must dump as JSON, so invalid bytes become U+FFFD as they arrive.
#pragma once

#include <string>

namespace ptxcts {

std::string valid_utf8(const std::string& bytes);

}  // namespace ptxcts
