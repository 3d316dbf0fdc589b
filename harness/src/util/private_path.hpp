// Places another user could write: what the suite runs from a cache of its own (a fetched ptxas,
// the disassembler beside it) and the folders it keeps such programs in must be the user's alone,
// or another user's program would run as this one (as root, for root).
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

// Why another user could have put or changed what is at `path`, naming the path; "" where no one
// could. The file and every folder above it (as the path resolves, links followed) must be owned by
// this user or by root and writable by neither group nor others; a folder of root's with the sticky
// bit (/tmp) passes, since there only an entry's owner may rename or remove it. A path that does not
// exist: "" (nothing there to run).
std::string writable_by_others(const std::filesystem::path& path);

// `dir` made where it is missing, each folder made with mode 0700, then checked as above; throws
// std::runtime_error "<dir>: not a private folder: ..." where another user could write there.
void make_private_folder(const std::filesystem::path& dir);

}  // namespace ptxcts
