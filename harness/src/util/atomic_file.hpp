// Replaces a file atomically (write a temporary beside it, then rename): readers never see half a file.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

void write_file_atomically(const std::filesystem::path& path, const std::string& content);
// The same in a folder that must exist already: where it is gone (a scratch folder a signal
// removed), an error, never the folder made again.
void replace_file_atomically(const std::filesystem::path& path, const std::string& content);

// Removes the temporaries (`NAME.tmpPID-N`) that writers killed mid-write (SIGKILL, the OOM killer)
// left in `dir`: those whose pid is gone and that are over a minute old (a live writer renames its
// own within milliseconds; the age spares a writer in another pid namespace sharing the folder).
// Once per process and folder; write_file_atomically calls it first.
void sweep_dead_temporaries(const std::filesystem::path& dir);

}  // namespace ptxcts
