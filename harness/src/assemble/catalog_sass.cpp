#include "assemble/catalog_sass.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <nlohmann/json.hpp>

#include "util/sealed_file.hpp"
#include "util/worker_threads.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// One cubin's listing, from the cache or a disassembler process.
struct CubinWork {
  std::string cubin;  // relative to the catalog directory
  std::string seal;
  DisassemblyResult result;
  bool cached = false;
};

fs::path listing_path(const fs::path& dir, const CubinWork& w, const Disassembler& d) {
  // The cubin's seal and the disassembler's name and version: a new cubin or another tool is a new entry.
  const std::string seal_hash = w.seal.substr(w.seal.find(' ') + 1);
  return dir / "cache" / fmt::format("{}.{}-{}.sass", seal_hash.empty() ? "unsealed" : seal_hash, d.tool, d.version);
}

std::optional<SassListing> read_listing(const fs::path& file) {
  SealedRead r = read_sealed(file);
  if (r.state == SealedRead::State::Bad) discard_bad_entry(file, r.why);
  if (!r.good()) return std::nullopt;
  try {
    return nlohmann::json::parse(r.content).get<SassListing>();
  } catch (const nlohmann::json::exception& e) {
    discard_bad_entry(file, e.what());
    return std::nullopt;
  }
}

void disassemble_all(std::vector<CubinWork>& work, const Disassembler& d, const fs::path& dir, int jobs) {
  const bool writable = ::access((dir / "cache").c_str(), W_OK) == 0;  // a copied read-only catalog: nothing added
  std::atomic<std::size_t> next{0};
  run_threads(std::max(1, jobs), [&] {
    for (std::size_t k; (k = next++) < work.size();) {
      CubinWork& w = work[k];
      const fs::path cached = listing_path(dir, w, d);
      if (auto listing = read_listing(cached)) {
        w.result.functions = std::move(*listing);
        w.cached = true;
        continue;
      }
      w.result = disassemble_cubin(d, dir / w.cubin);
      if (w.result.error.empty() && writable) write_sealed(cached, nlohmann::json(w.result.functions).dump());
    }
  });
}

AssemblySass no_sass(std::string why) {
  AssemblySass s;
  s.unavailable = std::move(why);
  return s;
}

}  // namespace

AssemblySass kernel_sass(const std::vector<std::string>& function_opcodes, const SassExpectation* expectation) {
  AssemblySass s;
  for (auto const& op : function_opcodes)
    if (std::find(s.opcodes.begin(), s.opcodes.end(), op) == s.opcodes.end()) s.opcodes.push_back(op);
  if (!expectation) return s;
  s.expected = expectation->mnemonics;
  s.expectation_source = (expectation->assumed ? "assumed: " : "") + expectation->source;
  for (auto const& op : s.opcodes)
    if (std::find(s.expected.begin(), s.expected.end(), sass_mnemonic(op)) != s.expected.end()) s.matched.push_back(op);
  return s;
}

void add_sass(Catalog& cat, const Suite& suite, const fs::path& dir, const DisassemblerChoice& choice, int jobs,
              SassStats* stats) {
  SassStats st;
  cat.disassembler = choice.tool ? choice.tool->describe() : "";
  cat.sass_unavailable = choice.tool ? "" : choice.unavailable;
  std::vector<CubinWork> work;
  std::map<std::string, std::size_t> of_cubin;
  for (auto const& a : cat.assemblies)
    if (a.accepted && !a.cubin.empty() && of_cubin.emplace(a.cubin, work.size()).second)
      work.push_back(CubinWork{.cubin = a.cubin, .seal = a.cubin_seal, .result = {}, .cached = false});
  st.cubins = static_cast<int>(work.size());
  if (choice.tool) disassemble_all(work, *choice.tool, dir, jobs);
  for (auto const& w : work) {
    st.cached += w.cached;
    st.processes += choice.tool && !w.cached;
    st.failed += !w.result.error.empty();
  }
  for (auto& a : cat.assemblies) {
    if (!a.accepted || a.cubin.empty()) continue;
    const KernelPlan* k = suite.find_kernel(a.kernel);
    const SassExpectation* expectation =
        k ? suite.specs.find_sass(k->subject_instance().variant().family, k->subject_instance().variant().operation)
          : nullptr;
    const CubinWork& w = work[of_cubin.at(a.cubin)];
    if (!choice.tool) {
      a.sass = no_sass(choice.unavailable);
      continue;
    }
    if (!w.result.error.empty()) {
      a.sass = no_sass(fmt::format("{} failed on {}: {}", choice.tool->tool, a.cubin, w.result.error));
      continue;
    }
    auto f = w.result.functions.find(a.entry);
    if (f == w.result.functions.end()) {
      a.sass = no_sass(fmt::format("{} lists no function {} in {}", choice.tool->tool, a.entry, a.cubin));
      continue;
    }
    a.sass = kernel_sass(f->second, expectation);
    ++st.kernels;
    st.unmatched += !a.sass->expected.empty() && a.sass->matched.empty();
  }
  if (stats) *stats = st;
}

}  // namespace ptxcts
