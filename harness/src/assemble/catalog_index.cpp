#include "assemble/catalog_index.hpp"

#include <fmt/format.h>

#include <cstring>

#include "util/atomic_file.hpp"
#include "util/file_text.hpp"
#include "util/sealed_file.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// 2: with the SASS (manifest schema 6); 1: the first format. The catalog's own schema is in it too:
// a manifest of another schema is never indexed.
constexpr std::string_view kMagic = "ptxcts-catalog-index 2\n";

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}
void put_str(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s);
}
void put_strs(std::string& out, const std::vector<std::string>& v) {
  put_u64(out, v.size());
  for (auto const& s : v) put_str(out, s);
}

// Reads what put_* wrote; any read past the end sets `ok` false and gives empty values.
struct Reader {
  std::string_view in;
  bool ok = true;
  std::uint64_t u64() {
    if (in.size() < 8) return fail(), 0;
    std::uint64_t v;
    std::memcpy(&v, in.data(), 8);
    in.remove_prefix(8);
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    if (!ok || n > in.size()) return fail(), std::string();
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v;
    const std::uint64_t n = u64();
    for (std::uint64_t k = 0; ok && k < n; ++k) v.push_back(str());  // a count is a claim: never reserved
    return v;
  }
  PtxVersion ptx() {
    auto v = PtxVersion::parse(str());
    if (!v) fail();
    return v.value_or(PtxVersion{});
  }
  void fail() { ok = false; }
};

ManifestKey key_of_text(std::string_view text) { return {.size = text.size(), .xxh3 = xxh3_hex(text)}; }

}  // namespace

std::optional<ManifestKey> manifest_key(const fs::path& manifest) {
  // Too large: no key (the manifest's reader says why).
  auto h = file_xxh3(manifest, kMaxInputFileBytes);
  if (!h) return std::nullopt;
  return ManifestKey{.size = h->size, .xxh3 = std::move(h->xxh3)};
}

std::string encode_catalog_index(const Catalog& c, const ManifestKey& key) {
  std::string out(kMagic);
  put_u64(out, key.size);
  put_str(out, key.xxh3);
  put_u64(out, Catalog::kSchemaVersion);
  put_str(out, c.ptxas_version);
  put_str(out, c.cuda_release);
  put_str(out, c.toolkit_ptx.str());
  put_str(out, c.ptx_isa_read_by);
  put_strs(out, c.ptxas_targets);
  for (const std::string* s : {&c.origin.suite_version, &c.origin.suite_commit, &c.origin.specs}) put_str(out, *s);
  put_str(out, c.disassembler);
  put_str(out, c.sass_unavailable);
  put_u64(out, c.targets.size());
  for (auto const& t : c.targets) put_str(out, t);
  put_u64(out, c.assemblies.size());
  for (auto const& a : c.assemblies) {
    for (std::string_view s : {std::string_view(a.kernel), std::string_view(a.target)}) put_str(out, s);
    put_str(out, a.ptx.str());
    put_u64(out, (a.accepted ? 1 : 0) | (a.attempted ? 2 : 0) | (a.sass ? 4 : 0));
    for (const std::string* s : {&a.message, &a.cubin, &a.cubin_seal, &a.ptx_file, &a.instruction, &a.entry, &a.error})
      put_str(out, *s);
    if (a.sass) {
      for (auto const* v : {&a.sass->opcodes, &a.sass->expected, &a.sass->matched}) put_strs(out, *v);
      put_str(out, a.sass->unavailable);
      put_str(out, a.sass->expectation_source);
    }
  }
  return out;
}

std::optional<Catalog> decode_catalog_index(std::string_view content, const ManifestKey& key) {
  if (content.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  Reader r{.in = content.substr(kMagic.size())};
  const std::uint64_t size = r.u64();
  const std::string hash = r.str();
  if (!r.ok || size != key.size || hash != key.xxh3 || r.u64() != Catalog::kSchemaVersion) return std::nullopt;
  Catalog c;
  c.ptxas_version = r.str();
  c.cuda_release = r.str();
  c.toolkit_ptx = r.ptx();
  c.ptx_isa_read_by = r.str();
  c.ptxas_targets = r.strs();
  for (std::string* s : {&c.origin.suite_version, &c.origin.suite_commit, &c.origin.specs}) *s = r.str();
  c.disassembler = r.str();
  c.sass_unavailable = r.str();
  const std::uint64_t targets = r.u64();
  for (std::uint64_t k = 0; r.ok && k < targets; ++k) c.targets.push_back(r.str());
  const std::uint64_t count = r.u64();
  // A count is a claim: assemblies are added as they are read, never reserved for.
  for (std::uint64_t k = 0; r.ok && k < count; ++k) {
    Assembly a;
    a.kernel = r.str();
    a.target = r.str();
    a.ptx = r.ptx();
    const std::uint64_t flags = r.u64();
    a.accepted = flags & 1;
    a.attempted = flags & 2;
    for (std::string* s : {&a.message, &a.cubin, &a.cubin_seal, &a.ptx_file, &a.instruction, &a.entry, &a.error})
      *s = r.str();
    if (flags & 4) {
      AssemblySass sass;
      for (auto* v : {&sass.opcodes, &sass.expected, &sass.matched}) *v = r.strs();
      sass.unavailable = r.str();
      sass.expectation_source = r.str();
      a.sass = std::move(sass);
    }
    c.assemblies.push_back(std::move(a));
  }
  if (!r.ok || !r.in.empty()) return std::nullopt;
  return c;
}

void save_catalog_indexed(const Catalog& c, const fs::path& dir) {
  const std::string text = manifest_text(c);
  write_file_atomically(dir / "manifest.json", text);
  try {
    write_sealed(dir / "manifest.index", encode_catalog_index(c, key_of_text(text)));
  } catch (const std::exception&) {}  // the manifest is written; the next run makes the index
}

Catalog load_catalog_indexed(const fs::path& dir, bool use_index, IndexUse* how) {
  if (how) *how = IndexUse::ParsedInFull;
  if (!use_index) return load_catalog(dir);
  const fs::path index = dir / "manifest.index";
  if (auto key = manifest_key(dir / "manifest.json")) {
    SealedRead sealed = read_sealed(index);
    if (sealed.good())
      if (auto c = decode_catalog_index(sealed.content, *key)) {
        if (how) *how = IndexUse::Read;
        return std::move(*c);
      }
    // Damaged (flipped, cut short): said once, as every cache entry. Of another manifest: rebuilt quietly.
    if (sealed.state == SealedRead::State::Bad) discard_bad_entry(index, sealed.why);
  }
  // The manifest in full; the index made from the very text parsed, so that it names that text.
  const std::string text = read_manifest_text(dir);
  Catalog c = parse_manifest_text(text, dir / "manifest.json");
  try {
    write_sealed(index, encode_catalog_index(c, key_of_text(text)));
    if (how) *how = IndexUse::Rebuilt;
  } catch (const std::exception&) {}  // a read-only catalog: parsed in full every time
  return c;
}

}  // namespace ptxcts
