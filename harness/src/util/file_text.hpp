// Whole-file reads, in one place: callers differ only in what a missing file means to them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcts {

// The file's bytes, or nullopt where it cannot be opened (the caller says what that means).
std::optional<std::string> try_read_file_text(const std::filesystem::path& path);

// The file's bytes; throws std::runtime_error "<path>: cannot read <what>" where it cannot be opened.
std::string read_file_text(const std::filesystem::path& path, std::string_view what = "this file");

}  // namespace ptxcts
