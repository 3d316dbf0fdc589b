// Replaces a file atomically (write a temporary beside it, then rename): readers never see half a file.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace ptxcts
