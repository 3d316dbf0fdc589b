// What a cubin must look like before it is believed: a CUDA ELF object for the target it was
// assembled for, of the size and checksum recorded when ptxas wrote it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// Why `bytes` is not a cubin for `target` ("sm_90a"), or nullopt where it is one.
std::optional<std::string> cubin_problem(std::string_view bytes, const std::string& target);

// Why the file at `path` is not the cubin sealed as `seal` for `target` ("missing" where there is no
// file), or "" where it is.
std::string cubin_file_problem(const std::filesystem::path& path, const std::string& seal, const std::string& target);

}  // namespace ptxcts
