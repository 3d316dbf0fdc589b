// A release package's own manifest, <prefix>/share/ptxcts/release.json: which suite made it (version,
// commit), which toolkit assembled its catalog, and every file it holds with its size (and, for the
// files every command reads, its content seal). Written when the package is made (`ptxcts
// release-manifest PREFIX`, run by the install step); checked by every command of a release before
// it reads anything, so that a package unpacked in part, cut short or mixed with another version's
// files says so once instead of running wrong or half kernels.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/toolkit_identity.hpp"

namespace ptxcts {

struct ReleaseManifest {
  static constexpr int kSchemaVersion = 1;
  std::string suite_version{}, suite_commit{};
  ToolkitIdentity catalog{};  // the toolkit that precompiled the package's catalog
  std::size_t files = 0;  // how many it lists
  // Of those, the documentation (share/doc/, share/man/, share/info/: what a minimized image's dpkg
  // leaves out, path-exclude=/usr/share/doc/*), and how many of it are not here. No command reads it,
  // so its absence is said by --version alone and refuses nothing.
  std::size_t documentation = 0, documentation_absent = 0;
};

// A package that cannot be run as it is: one message, what is wrong and what to do.
struct ReleaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes <prefix>/share/ptxcts/release.json for the files under <prefix> now (the catalog's toolkit
// read from its manifest). Returns how many files it lists.
std::size_t write_release_manifest(const std::filesystem::path& prefix, const std::string& suite_version,
                                   const std::string& suite_commit);

// Whether a file of the package (relative to its prefix) is documentation, which no command needs.
bool is_release_documentation(const std::string& path);

// Checks the release at `prefix` against this program (its version and commit) and its files against
// release.json: throws ReleaseError naming what a command needs (a program, library, spec, skeleton,
// catalog file, test or script) that is missing, cut short, changed or of another version. The
// documentation is only counted: absent (excluded at install), it refuses nothing.
ReleaseManifest check_release(const std::filesystem::path& prefix, const std::string& suite_version,
                              const std::string& suite_commit);

// The one line --version adds for a release: who assembled the shipped catalog.
std::string describe_release_catalog(const ReleaseManifest& m);

// The line --version adds where the documentation is not installed (else ""): that it is absent,
// why that may be, and that no command needs it.
std::string describe_release_documentation(const ReleaseManifest& m);

}  // namespace ptxcts
