#include "commands/release_manifest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "assemble/catalog_index.hpp"
#include "util/atomic_file.hpp"
#include "util/file_text.hpp"
#include "util/sealed_file.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

constexpr const char* kFile = "share/ptxcts/release.json";
constexpr const char* kCatalog = "share/ptxcts/catalog";

// The catalog is listed by size alone: it checks itself (the index is sealed and names the manifest
// by its hash, the manifest seals every cubin, which a run checks before it loads one, and each
// probe file carries its own seal). Everything else (the programs, specs, skeletons, tests) is
// also content-sealed.
bool sealed_by_content(const std::string& path) { return path.rfind(std::string(kCatalog) + "/", 0) != 0; }

// What Debian's minimized images (Ubuntu's, Docker's) exclude at install, dpkg.cfg.d's
// path-exclude=/usr/share/doc/* and its man and info siblings: the package's documentation.
constexpr const char* kDocumentation[] = {"share/doc/", "share/man/", "share/info/"};

std::string unpack_again(const fs::path& prefix) {
  return fmt::format("unpack the whole release archive again into an empty folder (or reinstall the .deb); {} was "
                     "left as it is",
                     prefix.string());
}

}  // namespace

bool is_release_documentation(const std::string& path) {
  return std::ranges::any_of(kDocumentation, [&](const char* d) { return path.starts_with(d); });
}

std::size_t write_release_manifest(const fs::path& prefix, const std::string& suite_version,
                                   const std::string& suite_commit) {
  const Catalog c = load_catalog_indexed(prefix / kCatalog);
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(prefix); it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file()) files.push_back(it->path().lexically_relative(prefix).generic_string());
  std::sort(files.begin(), files.end());
  std::erase(files, std::string(kFile));
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (auto const& f : files) {
    const auto size = fs::file_size(prefix / f);
    if (!sealed_by_content(f)) {
      list.push_back({f, size});
      continue;
    }
    list.push_back({f, size, content_seal(read_file_text(prefix / f, "a file of the package"))});
  }
  nlohmann::ordered_json j;
  j["kind"] = "ptxcts-release";
  j["schema"] = ReleaseManifest::kSchemaVersion;
  j["suite_version"] = suite_version;
  j["suite_commit"] = suite_commit;
  j["catalog"] = toolkit_identity_json(
      {.cuda_release = c.cuda_release, .ptxas_version = c.ptxas_version, .ptx_isa = c.toolkit_ptx.str(), .targets = c.targets});
  // One line per file, so that a person (or grep) reads it as a list.
  std::string text = j.dump(1);
  text.erase(text.rfind('}'));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  text += ",\n \"files\": [\n";
  for (std::size_t k = 0; k < list.size(); ++k) text += "  " + list[k].dump() + (k + 1 < list.size() ? ",\n" : "\n");
  text += " ]\n}\n";
  write_file_atomically(prefix / kFile, text);
  return files.size();
}

namespace {

// The release manifest's JSON (of this schema) and what its head says: the suite and its catalog.
ReleaseManifest read_release_manifest(const fs::path& prefix, nlohmann::json& j) {
  const fs::path file = prefix / kFile;
  std::optional<std::string> text = try_read_file_text(file, kMaxInputFileBytes);
  if (!text)
    throw ReleaseError(fmt::format("{} is missing: this release package is incomplete (bin/ptxcts lies beside "
                                   "share/ptxcts/, but not the list of what the package holds); {}",
                                   file.string(), unpack_again(prefix)));
  ReleaseManifest m;
  try {
    j = nlohmann::json::parse(*text);
    if (j.at("kind") != "ptxcts-release" || j.at("schema") != ReleaseManifest::kSchemaVersion)
      throw ReleaseError(fmt::format("{}: not a ptxcts release manifest of schema {} (kind {}, schema {}); {}",
                                     file.string(), ReleaseManifest::kSchemaVersion, j.at("kind").dump(),
                                     j.at("schema").dump(), unpack_again(prefix)));
    m.suite_version = j.at("suite_version");
    m.suite_commit = j.at("suite_commit");
    auto const& cat = j.at("catalog");
    m.catalog = {.cuda_release = cat.at("cuda_release"),
                 .ptxas_version = cat.at("ptxas_version"),
                 .ptx_isa = cat.at("ptx_isa"),
                 .targets = cat.at("targets")};
  } catch (const nlohmann::json::exception& e) {
    throw ReleaseError(fmt::format("{} is damaged ({}); {}", file.string(), e.what(), unpack_again(prefix)));
  }
  return m;
}

// Every file the manifest lists is there, of its size and content (its documentation counted, never
// refused); m counts them.
void check_release_files(const fs::path& prefix, const nlohmann::json& j, ReleaseManifest& m) {
  std::error_code ec;
  std::size_t missing = 0, wrong = 0;
  std::string first;
  for (auto const& f : j.at("files")) {
    ++m.files;
    const std::string path = f.at(0);
    const std::uintmax_t size = f.at(1);
    const fs::path at = prefix / path;
    const std::uintmax_t found = fs::file_size(at, ec);
    if (is_release_documentation(path)) {  // read by people, not by a command: counted, never refused
      ++m.documentation;
      if (ec) ++m.documentation_absent;
      continue;
    }
    std::string problem;
    if (ec) problem = fmt::format("{}: missing", path), ++missing;
    else if (found != size) problem = fmt::format("{}: {} bytes where the package had {}", path, found, size), ++wrong;
    else if (f.size() > 2) {
      auto bytes = try_read_file_text(at);
      if (!bytes || content_seal(*bytes) != f.at(2).get<std::string>())
        problem = fmt::format("{}: its content differs from the package's", path), ++wrong;
    }
    if (!problem.empty() && first.empty()) first = problem;
  }
  if (missing || wrong)
    throw ReleaseError(fmt::format(
        "the release package at {} is incomplete or damaged (a cut-short archive, a partial copy?): of its {} files, "
        "{} missing and {} cut short or changed (first: {}); nothing was run; {}",
        prefix.string(), m.files, missing, wrong, first, unpack_again(prefix)));
}

}  // namespace

ReleaseManifest check_release(const fs::path& prefix, const std::string& suite_version,
                              const std::string& suite_commit) {
  nlohmann::json j;
  ReleaseManifest m = read_release_manifest(prefix, j);
  if (m.suite_version != suite_version || m.suite_commit != suite_commit)
    throw ReleaseError(fmt::format(
        "{} holds the files of ptxcts {} (commit {}), but this program is ptxcts {} (commit {}): a package's "
        "catalog is run only by the ptxcts that assembled it, so that no kernel of another version runs; {}",
        (prefix / "share/ptxcts").string(), m.suite_version, m.suite_commit, suite_version, suite_commit,
        unpack_again(prefix)));
  std::error_code ec;
  if (!fs::is_directory(prefix / kCatalog, ec))
    throw ReleaseError(fmt::format(
        "the package's catalog is missing ({}): the kernels are precompiled there, and nothing is run without "
        "them (to assemble a catalog of your own instead, give --catalog DIR with --ptxas); {}",
        (prefix / kCatalog).string(), unpack_again(prefix)));
  check_release_files(prefix, j, m);
  return m;
}

std::string describe_release_documentation(const ReleaseManifest& m) {
  if (m.documentation_absent == 0) return "";
  return fmt::format("documentation: not installed ({} of its {} files of share/doc/ptxcts absent: left out at install, "
                     "as a minimized image's dpkg does with /usr/share/doc); no command needs it",
                     m.documentation_absent, m.documentation);
}

std::string describe_release_catalog(const ReleaseManifest& m) {
  std::string targets = m.catalog.targets.empty() ? "no target"
                        : m.catalog.targets.size() == 1
                            ? m.catalog.targets.front()
                            : fmt::format("{}...{} ({} targets)", m.catalog.targets.front(), m.catalog.targets.back(),
                                          m.catalog.targets.size());
  return fmt::format("catalog precompiled by CUDA {} (ptxas {}, PTX ISA {}) for {}", m.catalog.cuda_release,
                     m.catalog.ptxas_version, m.catalog.ptx_isa, targets);
}

}  // namespace ptxcts
