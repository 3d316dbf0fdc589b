#include "assembly_cache.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assembly_batch.hpp"
#include "atomic_file.hpp"

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

constexpr int kRecordFormat = 1;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<BatchMember> members_of(const Batch& b, const std::vector<std::size_t>& live) {
  std::vector<BatchMember> out;
  for (std::size_t k : live) {
    const BatchKernel& bk = b.kernels[k];
    out.push_back({std::string_view(bk.alone.ptx_text).substr(bk.entry_offset), bk.entry_line, bk.entry});
  }
  return out;
}

// "cache/<32 hex digits>.cubin": a record names nothing else.
bool is_cubin_name(const std::string& s) {
  const std::string head = "cache/", tail = ".cubin";
  if (s.size() != head.size() + 32 + tail.size() || s.compare(0, head.size(), head) || s.compare(s.size() - tail.size(), tail.size(), tail))
    return false;
  return std::all_of(s.begin() + 6, s.end() - 6, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); });
}

// The record of a batch's outcome, trusted only if every part of it fits this batch. Parallel
// arrays, one element per kernel: a warm rebuild reads every record, and objects parse slowly.
bool load_record(const fs::path& record, const fs::path& dir, Batch& b) {
  if (!fs::exists(record)) return false;
  try {
    nlohmann::json j = nlohmann::json::parse(read_file(record));
    if (j.at("format") != kRecordFormat) return false;
    auto entries = j.at("entries").get<std::vector<std::string>>(), messages = j.at("messages").get<std::vector<std::string>>(),
         cubins = j.at("cubins").get<std::vector<std::string>>();
    auto accepted = j.at("accepted").get<std::vector<bool>>();
    const std::size_t n = b.kernels.size();
    if (entries.size() != n || messages.size() != n || cubins.size() != n || accepted.size() != n) return false;
    std::string present;  // the last cubin found on disk (most kernels share one)
    for (std::size_t k = 0; k < n; ++k) {
      if (accepted[k]) {
        if (entries[k] != b.kernels[k].entry && entries[k] != kSkeletonEntry) return false;
        if (!is_cubin_name(cubins[k])) return false;
        if (cubins[k] != present && !fs::exists(dir / cubins[k])) return false;
        present = cubins[k];
      } else if (!cubins[k].empty() || !entries[k].empty()) {
        return false;
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      BatchKernel& bk = b.kernels[k];
      bk.accepted = accepted[k];
      bk.message = std::move(messages[k]);
      bk.cubin = std::move(cubins[k]);
      bk.cubin_entry = std::move(entries[k]);
    }
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

void save_record(const fs::path& record, const Batch& b) {
  auto entries = nlohmann::ordered_json::array(), accepted = entries, messages = entries, cubins = entries;
  for (auto const& k : b.kernels) {
    entries.push_back(k.cubin_entry);
    accepted.push_back(k.accepted);
    messages.push_back(k.message);
    cubins.push_back(k.cubin);
  }
  nlohmann::ordered_json j;
  j["format"] = kRecordFormat;
  j["entries"] = std::move(entries);
  j["accepted"] = std::move(accepted);
  j["messages"] = std::move(messages);
  j["cubins"] = std::move(cubins);
  write_file_atomically(record, j.dump() + "\n");
}

}  // namespace

std::string content_key(const std::string& ptx, const std::string& target, const std::string& ptxas_version) {
  // The hash of ptx '\0' target '\0' version, streamed: batch modules run to megabytes.
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK) throw std::bad_alloc();
  const char zero = '\0';
  for (auto const& [data, size] : {std::pair{ptx.data(), ptx.size()}, {&zero, 1}, {target.data(), target.size()}, {&zero, 1},
                                   {ptxas_version.data(), ptxas_version.size()}})
    XXH3_128bits_update(state.get(), data, size);
  XXH128_hash_t h = XXH3_128bits_digest(state.get());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

void run_job(const Toolchain& tc, const fs::path& dir, Job& job) {
  fs::path cache = dir / "cache";
  fs::path cubin = cache / (job.key + ".cubin"), rejected = cache / (job.key + ".rejected"), ptx = cache / (job.key + ".ptx");
  if (fs::exists(cubin)) { job.outcome = {true, read_file(cache / (job.key + ".log"))}; job.cached = true; return; }
  if (fs::exists(rejected)) { job.outcome = {false, read_file(rejected)}; job.cached = true; return; }
  write_file_atomically(ptx, job.ptx_text);
  fs::path tmp = cache / (job.key + ".cubin.tmp");
  job.outcome = assemble(tc, ptx, job.target, tmp);
  if (job.outcome.accepted) {
    write_file_atomically(cache / (job.key + ".log"), job.outcome.message);
    fs::rename(tmp, cubin);
  } else {
    fs::remove(tmp);
    write_file_atomically(rejected, job.outcome.message);
  }
}

void run_batch(const Toolchain& tc, const fs::path& dir, Batch& b) {
  std::vector<std::size_t> live(b.kernels.size());
  for (std::size_t k = 0; k < live.size(); ++k) live[k] = k;
  BatchModule module = compose_batch(b.header, members_of(b, live));
  const std::string first_key = content_key(module.text, b.target, tc.version);
  const fs::path record = dir / "cache" / (first_key + ".batch.json");
  if (load_record(record, dir, b)) return;

  // Each kernel's own module stays readable beside the batch: its messages' line numbers are its.
  for (auto const& k : b.kernels) {
    fs::path own = dir / "cache" / (k.alone.key + ".ptx");
    if (!fs::exists(own)) write_file_atomically(own, k.alone.ptx_text);
  }
  for (int round = 0; round < kBatchRounds && !live.empty(); ++round) {
    std::vector<BatchMember> members = members_of(b, live);
    if (round > 0) module = compose_batch(b.header, members);
    Job job{module.text, b.target, round == 0 ? first_key : content_key(module.text, b.target, tc.version), {}, false};
    run_job(tc, dir, job);
    b.ptxas_runs += !job.cached;
    BatchVerdict v = judge_batch(module, members, job.outcome.accepted, job.outcome.message);
    if (v.kind == BatchVerdict::Kind::Fallback) break;
    std::vector<std::size_t> rest;
    for (std::size_t n = 0; n < live.size(); ++n) {
      BatchKernel& k = b.kernels[live[n]];
      if (v.kind == BatchVerdict::Kind::Accepted) {
        k.accepted = true;
        k.message = v.messages[n];
        k.cubin = "cache/" + job.key + ".cubin";
        k.cubin_entry = k.entry;
      } else if (v.rejected[n]) {
        k.accepted = false;
        k.message = v.messages[n];
      } else {
        rest.push_back(live[n]);
      }
    }
    live = std::move(rest);
  }
  // What the batch could not settle is assembled exactly as a kernel alone would be.
  for (std::size_t n : live) {
    BatchKernel& k = b.kernels[n];
    run_job(tc, dir, k.alone);
    b.ptxas_runs += !k.alone.cached;
    k.accepted = k.alone.outcome.accepted;
    k.message = k.alone.outcome.message;
    if (k.accepted) {
      k.cubin = "cache/" + k.alone.key + ".cubin";
      k.cubin_entry = kSkeletonEntry;
    }
  }
  save_record(record, b);
}

}  // namespace ptxcts
