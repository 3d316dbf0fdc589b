#include "assemble/catalog_sass.hpp"
#include "assemble/raw_disassembly.hpp"

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
  std::string target;
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

// The cached listings first; then the others, nvdisasm's raw-binary mode taking all of one target's
// cubins in one process (its start, about half a second, is most of what a cubin costs), one process
// per cubin with cuobjdump, and for the cubins of a target whose one process failed.
void disassemble_all(std::vector<CubinWork>& work, const Disassembler& d, const fs::path& dir, int jobs,
                     SassStats& st) {
  const bool writable = ::access((dir / "cache").c_str(), W_OK) == 0;  // a copied read-only catalog: nothing added
  std::map<std::string, std::vector<std::size_t>> by_target;
  for (std::size_t k = 0; k < work.size(); ++k) {
    CubinWork& w = work[k];
    if (auto listing = read_listing(listing_path(dir, w, d))) {
      w.result.functions = std::move(*listing);
      w.cached = true;
    } else {
      by_target[d.tool == "nvdisasm" ? w.target : w.cubin].push_back(k);
    }
  }
  // A target's cubins in as many parts as it takes to keep every worker busy (one target, two workers:
  // two processes of half the cubins each).
  std::vector<std::vector<std::size_t>> tasks;
  const std::size_t parts_per_target =
      by_target.empty() ? 1 : (static_cast<std::size_t>(std::max(1, jobs)) + by_target.size() - 1) / by_target.size();
  for (auto& [_, members] : by_target) {
    const std::size_t parts = std::min(parts_per_target, members.size());
    for (std::size_t p = 0; p < parts; ++p)
      tasks.emplace_back(members.begin() + static_cast<std::ptrdiff_t>(members.size() * p / parts),
                         members.begin() + static_cast<std::ptrdiff_t>(members.size() * (p + 1) / parts));
  }
  std::atomic<std::size_t> next{0};
  std::atomic<int> processes{0};
  run_threads(std::max(1, jobs), [&] {
    for (std::size_t t; (t = next++) < tasks.size();) {
      const std::vector<std::size_t>& members = tasks[t];
      if (d.tool == "nvdisasm") {
        std::vector<fs::path> cubins;
        for (auto k : members) cubins.push_back(dir / work[k].cubin);
        std::vector<DisassemblyResult> raw = disassemble_cubins_raw(d, work[members.front()].target, cubins);
        ++processes;
        for (std::size_t j = 0; j < members.size(); ++j) work[members[j]].result = std::move(raw[j]);
      }
      for (auto k : members) {
        CubinWork& w = work[k];
        if (d.tool != "nvdisasm" || !w.result.error.empty()) {
          w.result = disassemble_cubin(d, dir / w.cubin);
          ++processes;
        }
        if (w.result.error.empty() && writable) write_sealed(listing_path(dir, w, d), nlohmann::json(w.result.functions).dump());
      }
    }
  });
  st.processes = processes;
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
      work.push_back(CubinWork{.cubin = a.cubin, .seal = a.cubin_seal, .target = a.target, .result = {}, .cached = false});
  st.cubins = static_cast<int>(work.size());
  if (choice.tool) disassemble_all(work, *choice.tool, dir, jobs, st);
  for (auto const& w : work) {
    st.cached += w.cached;
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
