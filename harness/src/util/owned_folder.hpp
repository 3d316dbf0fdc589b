// Scratch folders that leave nothing behind: each records its owner (pid, the process's start time,
// its pid namespace and the boot), is removed when it goes and when this process ends by SIGINT,
// SIGTERM or SIGHUP, and one left by a process killed outright (SIGKILL, the OOM killer, a CI job's
// timeout) is swept by the next ptxcts that makes one in the same place, once its owner is dead.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace ptxcts {

// Makes `parent/PREFIX-XXXXXX` with its `owner` file, and registers it for removal on a signal.
// First sweeps `parent` of the ptxcts folders whose owners are dead (once per process and parent),
// saying so on stderr in one line. Throws std::runtime_error naming the folder (a full disk included).
std::filesystem::path make_owned_folder(const std::filesystem::path& parent, const std::string& prefix);
// Removes it (whatever is in it) and forgets it.
void remove_owned_folder(const std::filesystem::path& dir);
// Where files made and unmade by the thousand go: /dev/shm where it is a folder this user may write
// (Linux's tmpfs: no disk inode to find for each new file, which on ext4 grows costly once many were
// removed nearby), else the temp folder.
std::filesystem::path memory_backed_parent();

// What was swept: how many folders, and the bytes they held.
struct Swept {
  int folders = 0;
  std::uintmax_t bytes = 0;
  std::string names;  // "ptxcts-run-a1B2c3, ptxcts-run-x9Y8z7"
};
// Removes each `ptxcts-*` folder of `parent` that has an owner file whose owner is dead: its pid is
// gone or now another process's (a different start time), or the machine rebooted since. A folder
// whose owner lives, lives in another pid namespace, or that has no owner file, is left alone.
Swept sweep_dead_owners(const std::filesystem::path& parent);
// The owner file's verdict, for the sweep and for tests: true only if the owner is known dead.
bool owner_dead(const std::filesystem::path& dir);

}  // namespace ptxcts
