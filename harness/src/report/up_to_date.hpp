// Reports that are up to date are not written again. A report's stamp, written beside the cache
// (CATALOG/stamps/, one sealed file per report, named by the report's path), holds the key of the
// inputs it was made from (this program's own bytes, the specs, the toolkit, the reports it was made
// of), the seal (size and XXH3-128) of each file written, and what the command said when it wrote
// them. Where the key is the same and every file still has its seal, the command says that again
// and writes nothing: `ptxcts audit --toolkit ...` over toolkits audited before reads no report
// back. A report edited, replaced or removed since, other specs, another toolkit or a rebuilt suite
// is written anew; nothing is stamped where ptxas failed on some probe (no verdict is kept from a
// failed tool run).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ptxcts {

// The key of a report's inputs: XXH3-128 of the parts, each preceded by its length.
std::string inputs_key(const std::vector<std::string>& parts);

// This program's own bytes, hashed once: part of every key, so a rebuilt suite writes its reports again.
const std::string& program_identity();

// A folder's regular files, names and contents, in name order (the specs).
std::string folder_identity(const std::filesystem::path& dir);

// A file's path, size and modification time (a toolkit's ptxas: cheap, and changed by a reinstall).
std::string file_identity(const std::filesystem::path& file);

// A file's "<size> <xxh3-128>", or "" where it cannot be read.
std::string file_seal(const std::filesystem::path& file);

struct Stamp {
  std::string said;  // what the command printed when it wrote the reports
  int status = 0;    // what that part of the command concluded (an exit status)
};

// The stamp of `files` (the first names it) if it was made from `key` and each file still has the seal
// it had when written; nullopt otherwise (a damaged stamp is said on stderr and removed).
std::optional<Stamp> up_to_date(const std::filesystem::path& stamps, const std::vector<std::filesystem::path>& files,
                                const std::string& key);

// Stamps `files`, just written from the inputs of `key`.
void stamp_reports(const std::filesystem::path& stamps, const std::vector<std::filesystem::path>& files,
                   const std::string& key, const Stamp& stamp);

}  // namespace ptxcts
