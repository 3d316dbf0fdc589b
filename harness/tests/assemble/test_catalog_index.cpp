// The manifest's index (assemble/catalog_index): a warm run reads it instead of parsing the
// manifest, and gets exactly what the manifest says; a manifest that changed in any way (even one
// byte, size and modification time kept) is parsed again; a damaged index is said and rebuilt; an
// index of another manifest is never believed. The expected values are the manifest's own, read by
// load_catalog (the JSON reader), never the index's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "assemble/catalog_index.hpp"
#include "util/file_text.hpp"
#include "util/sealed_file.hpp"

using namespace ptxcts;
namespace fs = std::filesystem;

namespace {

// Each field a value no other field has, so that a swap of two fields of one type shows.
Catalog sample(const std::string& tag) {
  Catalog c;
  c.ptxas_version = "ptxas V9.9.99" + tag;
  c.cuda_release = "9.9";
  c.toolkit_ptx = {9, 9};
  c.targets = {"sm_90", "sm_100a"};
  for (int k = 0; k < 3; ++k)
    c.assemblies.push_back({.kernel = "kernel-" + std::to_string(k) + tag,
                            .target = k ? "sm_90" : "sm_100a",
                            .ptx = {7, k},
                            .accepted = k != 1,
                            .attempted = k != 2,
                            .message = "message-" + std::to_string(k) + " \xc3\xa9\n second line",
                            .cubin = "cubin-" + std::to_string(k),
                            .cubin_seal = "seal-" + std::to_string(k),
                            .ptx_file = "ptx-" + std::to_string(k),
                            .instruction = "instruction-" + std::to_string(k),
                            .entry = "entry-" + std::to_string(k),
                            .error = k == 2 ? "error-2" : ""});
  // The SASS (manifest schema 6): the catalog's disassembler, and one kernel's listing.
  c.disassembler = "nvdisasm 9.9.99" + tag;
  c.sass_unavailable = "unavailable-catalog" + tag;
  c.assemblies[0].sass = AssemblySass{.opcodes = {"LDC", "LDSM.16.M88.4" + tag, "EXIT"},
                                      .expected = {"LDSM"},
                                      .matched = {"LDSM.16.M88.4" + tag},
                                      .unavailable = "unavailable-0",
                                      .expectation_source = "source-0"};
  return c;
}

void expect_same(const Catalog& got, const Catalog& want) {
  EXPECT_EQ(got.ptxas_version, want.ptxas_version);
  EXPECT_EQ(got.cuda_release, want.cuda_release);
  EXPECT_EQ(got.toolkit_ptx, want.toolkit_ptx);
  EXPECT_EQ(got.targets, want.targets);
  EXPECT_EQ(got.disassembler, want.disassembler);
  EXPECT_EQ(got.sass_unavailable, want.sass_unavailable);
  ASSERT_EQ(got.assemblies.size(), want.assemblies.size());
  for (std::size_t k = 0; k < want.assemblies.size(); ++k) {
    const Assembly &g = got.assemblies[k], &w = want.assemblies[k];
    EXPECT_EQ(g.kernel, w.kernel) << k;
    EXPECT_EQ(g.target, w.target) << k;
    EXPECT_EQ(g.ptx, w.ptx) << k;
    EXPECT_EQ(g.accepted, w.accepted) << k;
    EXPECT_EQ(g.attempted, w.attempted) << k;
    EXPECT_EQ(g.message, w.message) << k;
    EXPECT_EQ(g.cubin, w.cubin) << k;
    EXPECT_EQ(g.cubin_seal, w.cubin_seal) << k;
    EXPECT_EQ(g.ptx_file, w.ptx_file) << k;
    EXPECT_EQ(g.instruction, w.instruction) << k;
    EXPECT_EQ(g.entry, w.entry) << k;
    EXPECT_EQ(g.error, w.error) << k;
    ASSERT_EQ(g.sass.has_value(), w.sass.has_value()) << k;
    if (w.sass) {
      EXPECT_EQ(g.sass->opcodes, w.sass->opcodes) << k;
      EXPECT_EQ(g.sass->expected, w.sass->expected) << k;
      EXPECT_EQ(g.sass->matched, w.sass->matched) << k;
      EXPECT_EQ(g.sass->unavailable, w.sass->unavailable) << k;
      EXPECT_EQ(g.sass->expectation_source, w.sass->expectation_source) << k;
    }
  }
}

struct IndexDir : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("ptxcts-index-test-" + std::to_string(::getpid()));
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  void write_manifest(const std::string& text) {
    std::ofstream(dir / "manifest.json", std::ios::binary | std::ios::trunc) << text;
  }
};

}  // namespace

TEST_F(IndexDir, AWarmLoadReadsTheIndexAndGetsWhatTheManifestSays) {
  save_catalog(sample(""), dir);  // the manifest alone, as an older ptxcts left it
  const Catalog want = load_catalog(dir);
  IndexUse how{};
  const Catalog first = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Rebuilt);
  EXPECT_TRUE(fs::exists(dir / "manifest.index"));
  expect_same(first, want);
  const Catalog second = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Read);
  expect_same(second, want);
  load_catalog_indexed(dir, false, &how);  // the naive way: no index
  EXPECT_EQ(how, IndexUse::ParsedInFull);
}

TEST_F(IndexDir, ACatalogBuildWritesTheIndexOfItsManifest) {
  save_catalog_indexed(sample(""), dir);
  IndexUse how{};
  const Catalog got = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Read);
  expect_same(got, load_catalog(dir));
}

TEST_F(IndexDir, AManifestChangedInOneByteIsReadAgainThoughItsSizeAndTimeAreKept) {
  save_catalog(sample(""), dir);
  load_catalog_indexed(dir);  // indexed
  std::string text = read_file_text(dir / "manifest.json");
  const auto when = fs::last_write_time(dir / "manifest.json");
  const std::size_t at = text.find("message-1");
  ASSERT_NE(at, std::string::npos);
  text[at] = 'M';  // "Message-1": the same size
  write_manifest(text);
  fs::last_write_time(dir / "manifest.json", when);
  IndexUse how{};
  const Catalog got = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Rebuilt);
  EXPECT_EQ(got.assemblies[1].message.substr(0, 9), "Message-1");
  expect_same(got, load_catalog(dir));
  load_catalog_indexed(dir, true, &how);  // and the new index is of the new manifest
  EXPECT_EQ(how, IndexUse::Read);
}

TEST_F(IndexDir, AManifestReplacedByAnotherCatalogsIsReadAgain) {
  save_catalog_indexed(sample(""), dir);
  save_catalog(sample("-other"), dir);  // a new build's manifest, the index left as it was
  IndexUse how{};
  const Catalog got = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Rebuilt);
  EXPECT_EQ(got.ptxas_version, "ptxas V9.9.99-other");
  expect_same(got, load_catalog(dir));
}

TEST_F(IndexDir, AnIndexCopiedFromAnotherCatalogIsNotBelieved) {
  const fs::path other = dir / "other";
  fs::create_directories(other);
  save_catalog_indexed(sample("-other"), other);
  save_catalog(sample(""), dir);
  fs::copy_file(other / "manifest.index", dir / "manifest.index");
  IndexUse how{};
  const Catalog got = load_catalog_indexed(dir, true, &how);
  EXPECT_EQ(how, IndexUse::Rebuilt);
  expect_same(got, load_catalog(dir));
}

TEST_F(IndexDir, ADamagedIndexIsSaidDiscardedAndRebuilt) {
  save_catalog_indexed(sample(""), dir);
  std::string index = read_file_text(dir / "manifest.index");
  index[index.size() / 2] ^= 0x20;
  std::ofstream(dir / "manifest.index", std::ios::binary | std::ios::trunc) << index;
  IndexUse how{};
  testing::internal::CaptureStderr();
  const Catalog got = load_catalog_indexed(dir, true, &how);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(how, IndexUse::Rebuilt);
  EXPECT_NE(said.find("manifest.index: its checksum does not match its content; discarded, rebuilt"), std::string::npos)
      << said;
  expect_same(got, load_catalog(dir));
}

TEST_F(IndexDir, AnIndexCutShortOrOfAnotherManifestDecodesToNothing) {
  const Catalog c = sample("");
  const ManifestKey key{.size = 123, .xxh3 = std::string(32, 'a')};
  const std::string content = encode_catalog_index(c, key);
  ASSERT_TRUE(decode_catalog_index(content, key).has_value());
  EXPECT_FALSE(decode_catalog_index(content.substr(0, content.size() - 1), key).has_value());
  EXPECT_FALSE(decode_catalog_index(content + "x", key).has_value());
  EXPECT_FALSE(decode_catalog_index(content, {.size = 124, .xxh3 = key.xxh3}).has_value());
  EXPECT_FALSE(decode_catalog_index(content, {.size = 123, .xxh3 = std::string(32, 'b')}).has_value());
}

TEST_F(IndexDir, ABrokenManifestIsReportedAsBeforeThoughAnIndexOfItsPredecessorExists) {
  save_catalog_indexed(sample(""), dir);
  write_manifest("{\"schema_version\": 5, \"ptxas_version\": ");
  try {
    load_catalog_indexed(dir);
    FAIL() << "a corrupt manifest loaded (from a stale index)";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  (dir / "manifest.json").string() + ":1:40: corrupt catalog manifest: invalid JSON", 0),
              0u)
        << e.what();
  }
}

TEST_F(IndexDir, TheKeyIsTheManifestsSizeAndHashReadInPieces) {
  // 3 MB and a bit: read in pieces of 1 MiB, hashed as a stream; the same as the whole text hashed at once.
  std::string text;
  for (unsigned k = 0; text.size() < (3u << 20) + 17; ++k) text += std::to_string(k * 2654435761u) + ",";
  write_manifest(text);
  auto key = manifest_key(dir / "manifest.json");
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->size, text.size());
  EXPECT_EQ(key->xxh3, xxh3_hex(text));
  text.back() = ';';
  write_manifest(text);
  EXPECT_NE(manifest_key(dir / "manifest.json")->xxh3, key->xxh3);
  EXPECT_FALSE(manifest_key(dir / "none.json").has_value());
}
