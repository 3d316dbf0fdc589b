#include "assemble/assembly_cache.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "assemble/assembly_batch.hpp"
#include "assemble/cubin_check.hpp"
#include "util/atomic_file.hpp"
#include "util/file_text.hpp"
#include "util/sealed_file.hpp"
#include "util/utf8_text.hpp"

#include <unistd.h>

namespace ptxcts {
namespace fs = std::filesystem;

namespace {

// 3: sealed, with each cubin's size and checksum; 2 was not; 1 did not say how each verdict was
// obtained (and may hold ptxas failures as rejections).
constexpr int kRecordFormat = 3;
// The first line of a .log or .rejected record; ptxas's message follows.
constexpr std::string_view kObtained = "obtained: ";

// A cubin as recorded when ptxas wrote it: "cubin: <size> <xxh3-128>", the record's second line.
constexpr std::string_view kCubinLine = "cubin: ";

// A module's cached verdict: its sealed record, if it says how the verdict was obtained (older
// records do not, and may be a failed ptxas taken for a rejection: those are assembled again).
// A damaged record is said once and discarded.
std::optional<AssemblyOutcome> read_verdict(const fs::path& record, AssemblyState state, std::string* cubin = nullptr) {
  SealedRead read = read_sealed(record);
  if (read.state == SealedRead::State::Bad) discard_bad_entry(record, read.why);
  if (!read.good()) return std::nullopt;
  std::string_view text = read.content;
  auto take_line = [&text](std::string_view head) -> std::optional<std::string> {
    if (text.substr(0, head.size()) != head) return std::nullopt;
    const std::size_t nl = text.find('\n');
    std::string line(
        text.substr(head.size(), nl == std::string_view::npos ? std::string_view::npos : nl - head.size()));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    return line;
  };
  AssemblyOutcome o;
  o.state = state;
  auto obtained = take_line(kObtained);
  if (!obtained || obtained->empty()) return std::nullopt;
  o.obtained = *obtained;
  if (cubin) {
    auto seal = take_line(kCubinLine);
    if (!seal) return std::nullopt;
    *cubin = *seal;
  }
  o.message = valid_utf8(std::string(text));  // a record is sealed, not proven UTF-8: it must not poison the JSON
  return o;
}

void write_verdict(const fs::path& record, const AssemblyOutcome& o, const std::string& cubin = "") {
  write_sealed(record, std::string(kObtained) + o.obtained + "\n" +
                           (cubin.empty() ? "" : std::string(kCubinLine) + cubin + "\n") + o.message);
}

std::vector<BatchMember> members_of(const Batch& b, const std::vector<std::size_t>& live) {
  std::vector<BatchMember> out;
  for (std::size_t k : live) {
    const BatchKernel& bk = b.kernels[k];
    out.push_back({.entry = std::string_view(bk.alone.ptx_text).substr(bk.entry_offset),
                   .entry_line = bk.entry_line,
                   .name = bk.entry});
  }
  return out;
}

// "cache/<32 hex digits>.cubin": a record names nothing else.
bool is_cubin_name(const std::string& s) {
  const std::string head = "cache/", tail = ".cubin";
  if (s.size() != head.size() + 32 + tail.size() || s.compare(0, head.size(), head) ||
      s.compare(s.size() - tail.size(), tail.size(), tail))
    return false;
  return std::all_of(s.begin() + 6, s.end() - 6,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); });
}

// The record of a batch's outcome, trusted only if every part of it fits this batch. Parallel
// arrays, one element per kernel: a warm rebuild reads every record, and objects parse slowly.
bool load_record(const fs::path& record, const fs::path& dir, Batch& b) {
  SealedRead read = read_sealed(record);
  if (read.state == SealedRead::State::Bad) discard_bad_entry(record, read.why);
  if (!read.good()) return false;
  try {
    nlohmann::json j = nlohmann::json::parse(read.content);
    if (j.at("format") != kRecordFormat) return false;
    auto entries = j.at("entries").get<std::vector<std::string>>(),
         messages = j.at("messages").get<std::vector<std::string>>(),
         cubins = j.at("cubins").get<std::vector<std::string>>(),
         seals = j.at("cubin_seals").get<std::vector<std::string>>();
    auto accepted = j.at("accepted").get<std::vector<bool>>();
    auto obtained = j.at("obtained").get<std::vector<std::string>>();
    const std::size_t n = b.kernels.size();
    if (entries.size() != n || messages.size() != n || cubins.size() != n || accepted.size() != n ||
        obtained.size() != n || seals.size() != n)
      return false;
    std::string present;  // the last cubin found on disk (most kernels share one)
    for (std::size_t k = 0; k < n; ++k) {
      if (accepted[k]) {
        if (entries[k] != b.kernels[k].entry && entries[k] != kSkeletonEntry) return false;
        if (!is_cubin_name(cubins[k])) return false;
        if (cubins[k] != present) {
          if (auto why = cubin_file_problem(dir / cubins[k], seals[k], b.target); !why.empty()) {
            if (why != "missing") discard_bad_entry(dir / cubins[k], why);
            return false;
          }
        }
        present = cubins[k];
      } else if (!cubins[k].empty() || !entries[k].empty()) {
        return false;
      }
      if (obtained[k].empty()) return false;
    }
    for (std::size_t k = 0; k < n; ++k) {
      BatchKernel& bk = b.kernels[k];
      bk.outcome = {.state = accepted[k] ? AssemblyState::Accepted : AssemblyState::Rejected,
                    .message = std::move(messages[k]),
                    .obtained = std::move(obtained[k])};
      bk.cubin = std::move(cubins[k]);
      bk.cubin_seal = std::move(seals[k]);
      bk.cubin_entry = std::move(entries[k]);
    }
    return true;
  } catch (const nlohmann::json::exception&) { return false; }
}

void save_record(const fs::path& record, const Batch& b) {
  auto entries = nlohmann::ordered_json::array(), accepted = entries, messages = entries, cubins = entries,
       obtained = entries, seals = entries;
  for (auto const& k : b.kernels) {
    entries.push_back(k.cubin_entry);
    accepted.push_back(k.outcome.accepted());
    messages.push_back(k.outcome.message);
    cubins.push_back(k.cubin);
    obtained.push_back(k.outcome.obtained);
    seals.push_back(k.cubin_seal);
  }
  nlohmann::ordered_json j;
  j["format"] = kRecordFormat;
  j["entries"] = std::move(entries);
  j["accepted"] = std::move(accepted);
  j["messages"] = std::move(messages);
  j["cubins"] = std::move(cubins);
  j["obtained"] = std::move(obtained);
  j["cubin_seals"] = std::move(seals);
  write_sealed(record, j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

}  // namespace

std::string content_key(const std::string& ptx, const std::string& target, const std::string& ptxas_version) {
  // The hash of ptx '\0' target '\0' version, streamed: batch modules run to megabytes.
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK) throw std::bad_alloc();
  const char zero = '\0';
  for (auto const& [data, size] : {std::pair{ptx.data(), ptx.size()},
                                   {&zero, 1},
                                   {target.data(), target.size()},
                                   {&zero, 1},
                                   {ptxas_version.data(), ptxas_version.size()}})
    XXH3_128bits_update(state.get(), data, size);
  XXH128_hash_t h = XXH3_128bits_digest(state.get());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

void run_job(const Toolchain& tc, const fs::path& dir, Job& job) {
  fs::path cache = dir / "cache";
  fs::path cubin = cache / (job.key + ".cubin"), log = cache / (job.key + ".log"),
           rejected = cache / (job.key + ".rejected"), ptx = cache / (job.key + ".ptx");
  std::string seal;
  if (auto o = read_verdict(log, AssemblyState::Accepted, &seal)) {
    if (std::string why = cubin_file_problem(cubin, seal, job.target); why.empty()) {
      job.outcome = std::move(*o);
      job.cubin_seal = std::move(seal);
      job.cached = true;
      return;
    } else if (why != "missing") {
      discard_bad_entry(cubin, why);
    }
  }
  if (auto o = read_verdict(rejected, AssemblyState::Rejected)) {
    job.outcome = std::move(*o);
    job.cached = true;
    return;
  }
  write_file_atomically(ptx, job.ptx_text);
  // Named for this process and thread: another ptxcts may be assembling the same module now.
  fs::path tmp = cache / fmt::format("{}.cubin.tmp{}-{:x}", job.key, ::getpid(),
                                     std::hash<std::thread::id>{}(std::this_thread::get_id()));
  job.outcome = assemble(tc, ptx, job.target, tmp);
  std::error_code ec;
  switch (job.outcome.state) {
    case AssemblyState::Accepted: {
      // What ptxas wrote is believed only if it is a cubin for this target.
      const std::string bytes = try_read_file_text(tmp).value_or("");
      if (auto why = cubin_problem(bytes, job.target)) {
        job.outcome.state = AssemblyState::Error;
        job.outcome.obtained += ", but its output is not a cubin for " + job.target + ": " + *why;
        fs::remove(tmp, ec);
        break;
      }
      job.cubin_seal = content_seal(bytes);
      fs::rename(tmp, cubin);  // before its record: a record never names a cubin not there
      write_verdict(log, job.outcome, job.cubin_seal);
      fs::remove(rejected, ec);
      break;
    }
    case AssemblyState::Rejected:
      fs::remove(tmp, ec);
      fs::remove(cubin, ec);
      fs::remove(log, ec);
      write_verdict(rejected, job.outcome);
      break;
    case AssemblyState::Error:  // no verdict: nothing is recorded, so the next build tries again
      fs::remove(tmp, ec);
      break;
  }
}

namespace {

// The kernels `live` of a batch that its verdict settles (each accepted, in the batch's cubin, or
// rejected) get their outcome; those it does not are returned.
std::vector<std::size_t> settle(Batch& b, const std::vector<std::size_t>& live, const BatchVerdict& v,
                                const std::string& obtained, const Job& job) {
  std::vector<std::size_t> rest;
  for (std::size_t n = 0; n < live.size(); ++n) {
    BatchKernel& k = b.kernels[live[n]];
    if (v.kind == BatchVerdict::Kind::Accepted) {
      k.outcome = {.state = AssemblyState::Accepted, .message = v.messages[n], .obtained = obtained};
      k.cubin = "cache/" + job.key + ".cubin";
      k.cubin_seal = job.cubin_seal;
      k.cubin_entry = k.entry;
    } else if (v.rejected[n]) {
      k.outcome = {.state = AssemblyState::Rejected, .message = v.messages[n], .obtained = obtained};
    } else {
      rest.push_back(live[n]);
    }
  }
  return rest;
}

// The kernels `live` of a batch assembled each alone; true when ptxas failed on one (no verdict).
bool assemble_alone(const Toolchain& tc, const fs::path& dir, Batch& b, const std::vector<std::size_t>& live) {
  bool failed = false;
  for (std::size_t n : live) {
    BatchKernel& k = b.kernels[n];
    run_job(tc, dir, k.alone);
    b.ptxas_runs += !k.alone.cached;
    k.outcome = k.alone.outcome;
    k.outcome.obtained += ", alone";
    failed = failed || k.outcome.error();
    if (k.outcome.accepted()) {
      k.cubin = "cache/" + k.alone.key + ".cubin";
      k.cubin_seal = k.alone.cubin_seal;
      k.cubin_entry = kSkeletonEntry;
    }
  }
  return failed;
}

}  // namespace

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
  bool failed = false;  // ptxas failed somewhere: the batch's outcome is not recorded
  for (int round = 0; round < kBatchRounds && !live.empty(); ++round) {
    std::vector<BatchMember> members = members_of(b, live);
    if (round > 0) module = compose_batch(b.header, members);
    Job job{.ptx_text = module.text,
            .target = b.target,
            .key = round == 0 ? first_key : content_key(module.text, b.target, tc.version)};
    run_job(tc, dir, job);
    b.ptxas_runs += !job.cached;
    AssemblyOutcome how = job.outcome;
    how.obtained += fmt::format(", on a batch of {} kernels", live.size());
    if (job.outcome.error()) {  // says nothing about any kernel in it: each gets the error, none a verdict
      for (std::size_t n : live) b.kernels[n].outcome = how;
      live.clear();
      failed = true;
      break;
    }
    BatchVerdict v = judge_batch(module, members, job.outcome.accepted(), job.outcome.message);
    if (v.kind == BatchVerdict::Kind::Fallback) break;
    live = settle(b, live, v, how.obtained, job);
  }
  // What the batch could not settle is assembled exactly as a kernel alone would be.
  failed = assemble_alone(tc, dir, b, live) || failed;
  if (!failed) save_record(record, b);
}

}  // namespace ptxcts
