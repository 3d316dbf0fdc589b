// Names for the small temporary files a process hands to a program (a probe's .ptx for ptxas, the
// disassembler's raw input), in a scratch folder of the process's own under $TMPDIR rather than
// loose in it: the folder goes when the process ends, by exit or by SIGINT, SIGTERM or SIGHUP, and
// one a SIGKILL left is swept by the next ptxcts (util/owned_folder), which a loose file never was.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcts {

// A path no other call of this process gets, `stem-N.extension` in the process's scratch folder
// (made at the first call, under the $TMPDIR of that moment). The caller writes and removes the
// file; what it leaves goes with the folder. Thread-safe. Throws std::runtime_error naming the
// folder where it cannot be made (a full disk included).
std::filesystem::path scratch_file(const std::string& stem, const std::string& extension);

}  // namespace ptxcts
