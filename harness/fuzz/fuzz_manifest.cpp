// libFuzzer target: the catalog manifest reader, load_catalog, on an arbitrary manifest.json (it
// reads DIR/manifest.json: the input goes there, in one temporary directory per process). Success
// or a std::runtime_error (assemble/catalog.hpp: "throws std::runtime_error naming the file") is a
// clean outcome; anything else is a finding. A manifest it accepts must survive the round trip:
// saved with save_catalog and loaded again, it is the same catalog.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "assemble/catalog_manifest.hpp"

namespace {
std::filesystem::path g_dir;

bool same(const ptxcts::Catalog& a, const ptxcts::Catalog& b) {
  if (a.ptxas_version != b.ptxas_version || a.cuda_release != b.cuda_release || a.toolkit_ptx != b.toolkit_ptx ||
      a.targets != b.targets || a.assemblies.size() != b.assemblies.size())
    return false;
  for (std::size_t i = 0; i < a.assemblies.size(); ++i) {
    auto const &x = a.assemblies[i], &y = b.assemblies[i];
    if (x.kernel != y.kernel || x.target != y.target || x.ptx != y.ptx || x.accepted != y.accepted ||
        x.attempted != y.attempted || x.message != y.message || x.cubin != y.cubin || x.ptx_file != y.ptx_file ||
        x.instruction != y.instruction || x.entry != y.entry || x.error != y.error)
      return false;
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_dir = std::filesystem::temp_directory_path() / ("ptxcts-fuzz-manifest-" + std::to_string(::getpid()));
  std::filesystem::create_directories(g_dir);
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(g_dir, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(g_dir / "manifest.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) {
      std::fprintf(stderr, "fuzz_manifest: cannot write %s/manifest.json\n", g_dir.c_str());
      std::abort();
    }
  }
  ptxcts::Catalog c;
  try {
    c = ptxcts::load_catalog(g_dir);
  } catch (const std::runtime_error&) { return 0; }
  // What the rest of the harness asks of a loaded catalog.
  (void)c.errors();
  for (auto const& a : c.assemblies) (void)c.find(a.kernel, a.target);
  try {
    ptxcts::save_catalog(c, g_dir);
    if (!same(c, ptxcts::load_catalog(g_dir))) {
      std::fprintf(stderr, "fuzz_manifest: the catalog saved and loaded again differs\n");
      std::abort();
    }
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "fuzz_manifest: a catalog it loaded, saved, is refused: %s\n", e.what());
    std::abort();
  }
  return 0;
}
