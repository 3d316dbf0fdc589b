// A compact copy of a catalog's manifest, `manifest.index` beside `manifest.json`, so that a warm
// run does not parse megabytes of JSON (an all-targets manifest is ~18 MB, and its parse peaks at
// hundreds of MB) when the manifest has not changed. The manifest stays the truth: the index is
// only ever made from it, names the manifest it was made from by size and XXH3-128 hash (the
// manifest is hashed as it is read, a piece at a time, never held whole), and is sealed
// (util/sealed_file). A manifest that differs in either, or an index that is damaged, missing or
// of another format, means the manifest is parsed in full and the index written again (where the
// catalog can be written: a read-only catalog is simply parsed every time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "assemble/catalog_manifest.hpp"

namespace ptxcts {

// Which manifest an index was made from.
struct ManifestKey {
  std::uint64_t size = 0;
  std::string xxh3;  // 32 hex digits
  bool operator==(const ManifestKey&) const = default;
};
// nullopt: the manifest cannot be read.
std::optional<ManifestKey> manifest_key(const std::filesystem::path& manifest);

// The index's content (before sealing), and back. decode gives nullopt for content that is not an
// index of `key`'s manifest (another manifest, another format, cut short).
std::string encode_catalog_index(const Catalog& c, const ManifestKey& key);
std::optional<Catalog> decode_catalog_index(std::string_view content, const ManifestKey& key);

// What load_catalog_indexed did (for tests): read the index; parsed the manifest and wrote the
// index; parsed the manifest in full and wrote none (use_index false, or the catalog is read-only).
enum class IndexUse { Read, Rebuilt, ParsedInFull };

// The catalog of `dir`: from its index when the index is of the manifest as it is now, else from the
// manifest (load_catalog; its errors as they are), writing the index for next time.
// `use_index` false: the manifest in full, as load_catalog (the naive path, for comparisons).
Catalog load_catalog_indexed(const std::filesystem::path& dir, bool use_index = true, IndexUse* how = nullptr);

// save_catalog, and the index of the manifest it wrote (so that the first run after a build reads the index).
void save_catalog_indexed(const Catalog& c, const std::filesystem::path& dir);

}  // namespace ptxcts
