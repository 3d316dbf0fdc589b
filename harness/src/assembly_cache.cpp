#include "assembly_cache.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
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

// The record of a batch's outcome, trusted only if every part of it fits this batch.
bool load_record(const fs::path& record, const fs::path& dir, Batch& b) {
  if (!fs::exists(record)) return false;
  static const std::regex cubin_name(R"(cache/[0-9a-f]{32}\.cubin)");
  try {
    nlohmann::json j = nlohmann::json::parse(read_file(record));
    if (j.at("format").get<int>() != kRecordFormat) return false;
    auto const& ks = j.at("kernels");
    if (!ks.is_array() || ks.size() != b.kernels.size()) return false;
    struct Outcome { bool accepted; std::string message, cubin, entry; };
    std::vector<Outcome> got;
    for (std::size_t n = 0; n < ks.size(); ++n) {
      Outcome o{ks[n].at("accepted").get<bool>(), ks[n].at("message").get<std::string>(), ks[n].at("cubin").get<std::string>(),
                ks[n].at("entry").get<std::string>()};
      if (o.accepted) {
        if (o.entry != b.kernels[n].entry && o.entry != kSkeletonEntry) return false;
        if (!std::regex_match(o.cubin, cubin_name) || !fs::exists(dir / o.cubin)) return false;
      } else if (!o.cubin.empty() || !o.entry.empty()) {
        return false;
      }
      got.push_back(std::move(o));
    }
    for (std::size_t n = 0; n < got.size(); ++n) {
      BatchKernel& k = b.kernels[n];
      k.accepted = got[n].accepted;
      k.message = std::move(got[n].message);
      k.cubin = std::move(got[n].cubin);
      k.cubin_entry = std::move(got[n].entry);
    }
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

void save_record(const fs::path& record, const Batch& b) {
  nlohmann::ordered_json j;
  j["format"] = kRecordFormat;
  auto& ks = j["kernels"] = nlohmann::ordered_json::array();
  for (auto const& k : b.kernels)
    ks.push_back({{"entry", k.cubin_entry}, {"accepted", k.accepted}, {"message", k.message}, {"cubin", k.cubin}});
  write_file_atomically(record, j.dump(1) + "\n");
}

}  // namespace

std::string content_key(const std::string& ptx, const std::string& target, const std::string& ptxas_version) {
  std::string all = ptx + '\0' + target + '\0' + ptxas_version;
  XXH128_hash_t h = XXH3_128bits(all.data(), all.size());
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
