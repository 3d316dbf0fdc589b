// What a cubin must look like before it is believed: a CUDA ELF object for the target it was
// assembled for, of the size and checksum recorded when ptxas wrote it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// Why `bytes` is not a cubin for `target` ("sm_90a"), or nullopt where it is one.
std::optional<std::string> cubin_problem(std::string_view bytes, const std::string& target);

}  // namespace ptxcts
