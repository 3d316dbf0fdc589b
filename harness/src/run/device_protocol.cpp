#include "run/device_protocol.hpp"

#include "util/atomic_file.hpp"
#include "util/checked_file.hpp"

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace ptxcts {
namespace {

constexpr char kJobMagic[8] = {'P', 'T', 'X', 'C', 'T', 'S', 'J', '2'};  // 2: the job's label
constexpr char kResultMagic[4] = {'P', 'C', 'R', '1'};

template <class T>
void put(std::ostream& o, T v) {
  o.write(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_str(std::ostream& o, const std::string& s) {
  put<std::uint32_t>(o, static_cast<std::uint32_t>(s.size()));
  o.write(s.data(), static_cast<std::streamsize>(s.size()));
}
template <class T>
void put_vec(std::ostream& o, const std::vector<T>& v) {
  put<std::uint64_t>(o, v.size());
  o.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

template <class T>
bool get(std::istream& i, T& v) {
  return static_cast<bool>(i.read(reinterpret_cast<char*>(&v), sizeof v));
}
bool get_str(std::istream& i, std::string& s) {
  std::uint32_t n = 0;
  if (!get(i, n) || n > (1u << 20)) return false;
  s.resize(n);
  return static_cast<bool>(i.read(s.data(), n));
}
// A length read from the file is a claim: the vector grows only as elements arrive, a chunk at a
// time, so a corrupt length costs what the file holds, not what it states (fuzzing finding F3).
template <class T>
bool get_vec(std::istream& i, std::vector<T>& v) {
  std::uint64_t n = 0;
  if (!get(i, n) || n > (std::uint64_t{1} << 28)) return false;
  constexpr std::uint64_t kChunk = 1 << 16;
  v.clear();
  for (std::uint64_t done = 0; done < n;) {
    const std::uint64_t take = std::min(kChunk, n - done);
    v.resize(done + take);
    if (!i.read(reinterpret_cast<char*>(v.data() + done), static_cast<std::streamsize>(take * sizeof(T)))) return false;
    done += take;
  }
  return true;
}

}  // namespace

const char* to_string(RunToolchain t) { return t == RunToolchain::Jit ? "jit" : "cubin"; }

bool jit_refusal(const std::string& error_name, const std::string& log) {
  if (error_name == "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" || error_name == "CUDA_ERROR_NO_BINARY_FOR_GPU") return true;
  if (error_name != "CUDA_ERROR_INVALID_PTX") return false;
  // The JIT's ptxas says so in its own words (as the toolkit's ptxas does).
  for (const char* says : {"Unsupported .version", "Unsupported .target", "is not defined for option 'gpu-name'"})
    if (log.find(says) != std::string::npos) return true;
  return false;
}

std::string first_line(const std::string& log) {
  std::size_t at = 0;
  while (at < log.size()) {
    std::size_t end = log.find('\n', at);
    if (end == std::string::npos) end = log.size();
    std::size_t b = log.find_first_not_of(" \t\r", at);
    if (b != std::string::npos && b < end) {
      std::size_t e = log.find_last_not_of(" \t\r", end - 1);
      return log.substr(b, e - b + 1);
    }
    at = end + 1;
  }
  return "";
}

JobFileWriter::JobFileWriter(std::ostream& out) : out_(out) {
  if (const std::streampos at = out_.tellp(); at != std::streampos(-1)) base_ = at;
  out_.write(kJobMagic, sizeof kJobMagic);
  put<std::uint32_t>(out_, 0);  // the count, filled in by finish()
}

std::uint64_t JobFileWriter::add(const DeviceJob& j) {
  const std::uint64_t at = at_;
  const LaunchInput& in = j.input;
  at_ += 4 + (4 + j.module.size()) + (4 + j.kernel_name.size()) + (4 + j.label.size()) + 16 +
         (8 + in.offsets.size() * 4) + (8 + in.state.smem.size()) + (8 + in.state.regs.size() * 4);
  put(out_, j.id);
  put_str(out_, j.module);
  put_str(out_, j.kernel_name);
  put_str(out_, j.label);
  const LaunchShape& s = j.input.shape;
  for (int v : {s.warps, s.tile_bytes, s.steps, s.regs}) put<std::int32_t>(out_, v);
  put_vec(out_, j.input.offsets);
  put_vec(out_, j.input.state.smem);
  put_vec(out_, j.input.state.regs);
  ++count_;
  return at;
}

void JobFileWriter::finish() {
  out_.seekp(base_ + std::streamoff(sizeof kJobMagic));
  put<std::uint32_t>(out_, count_);
  out_.seekp(0, std::ios::end);
  out_.flush();
}

void write_jobs(std::ostream& out, const std::vector<DeviceJob>& jobs, std::vector<std::uint64_t>* offsets) {
  JobFileWriter w(out);
  for (auto const& j : jobs) {
    const std::uint64_t at = w.add(j);
    if (offsets) offsets->push_back(at);
  }
  w.finish();
}

// One job, where the stream is.
static DeviceJob read_one_job(std::istream& in) {
  DeviceJob j;
  std::int32_t w, t, st, r;
  bool ok = get(in, j.id) && get_str(in, j.module) && get_str(in, j.kernel_name) && get_str(in, j.label) &&
            get(in, w) && get(in, t) && get(in, st) && get(in, r) && get_vec(in, j.input.offsets) &&
            get_vec(in, j.input.state.smem) && get_vec(in, j.input.state.regs);
  if (!ok) throw std::runtime_error("truncated job file");
  j.input.shape = {.warps = w, .tile_bytes = t, .steps = st, .regs = r};
  const std::size_t threads = static_cast<std::size_t>(w) * 32;
  if (w <= 0 || t <= 0 || st <= 0 || r <= 0 || j.input.offsets.size() != threads * static_cast<std::size_t>(st) ||
      j.input.state.smem.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(t) ||
      j.input.state.regs.size() != threads * static_cast<std::size_t>(r))
    throw std::runtime_error("job " + std::to_string(j.id) + ": buffer sizes do not match its shape");
  return j;
}

std::vector<DeviceJob> read_jobs(std::istream& in) {
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kJobMagic, 8) != 0) throw std::runtime_error("not a ptxcts job file");
  std::uint32_t n = 0;
  if (!get(in, n)) throw std::runtime_error("truncated job file");
  // The count is a claim too: jobs are added as they are read (fuzzing finding F1).
  std::vector<DeviceJob> jobs;
  for (std::uint32_t k = 0; k < n; ++k) jobs.push_back(read_one_job(in));
  return jobs;
}

void write_result(std::ostream& out, const DeviceResult& r) {
  out.write(kResultMagic, sizeof kResultMagic);
  put(out, r.id);
  const std::uint8_t outcome = r.ok ? 1 : r.load == ModuleLoad::Refused ? 2 : r.load == ModuleLoad::Failed ? 3 : 0;
  put<std::uint8_t>(out, outcome);
  put_str(out, r.error);
  put_vec(out, r.state.smem);
  put_vec(out, r.state.regs);
  out.flush();
}

ResultsWriter::ResultsWriter(const std::string& path) {
  checked([&] { file_ = std::make_unique<CheckedFile>(path, CheckedFile::Open::Append); });
}
ResultsWriter::~ResultsWriter() = default;

template <class F>
void ResultsWriter::checked(F write) {
  try {
    write();
  } catch (const std::runtime_error& e) {  // util/checked_file's: the path, the error, the free space
    throw ResultsUnwritable(e.what());
  }
}

void ResultsWriter::write(const DeviceResult& r) {
  checked([&] { write_result(*file_, r); });
}

void ResultsWriter::write_bytes(const std::string& raw) {
  checked([&] { file_->write(raw.data(), static_cast<std::streamsize>(raw.size())).flush(); });
}

void ResultsWriter::close() {
  checked([&] { file_->close(); });
}

constexpr char kUnwritableWord[] = "results-unwritable ";

int results_unwritable(const ResultsUnwritable& e) {
  std::printf("%s%s\n", kUnwritableWord, e.what());
  std::fflush(stdout);
  return kDeviceResultsUnwritable;
}

std::optional<std::string> parse_results_unwritable_line(const std::string& line) {
  if (line.rfind(kUnwritableWord, 0) != 0) return std::nullopt;
  return line.substr(sizeof kUnwritableWord - 1);
}

DeviceJob read_job_at(std::istream& in, std::uint64_t offset) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  if (!in) throw std::runtime_error("job file: no job at offset " + std::to_string(offset));
  return read_one_job(in);
}

std::optional<DeviceResult> read_result(std::istream& in) {
  std::streampos at = in.tellg();
  char magic[4];
  DeviceResult r;
  std::uint8_t ok = 0;
  if (in.read(magic, 4) && std::memcmp(magic, kResultMagic, 4) == 0 && get(in, r.id) && get(in, ok) &&
      get_str(in, r.error) && get_vec(in, r.state.smem) && get_vec(in, r.state.regs)) {
    r.ok = ok == 1;
    r.load = ok == 2 ? ModuleLoad::Refused : ok == 3 ? ModuleLoad::Failed : ModuleLoad::Loaded;
    return r;
  }
  in.clear();
  if (at != std::streampos(-1)) in.seekg(at);
  return std::nullopt;
}

std::vector<DeviceResult> read_results(std::istream& in) {
  std::vector<DeviceResult> out;
  while (auto r = read_result(in)) out.push_back(std::move(*r));
  return out;
}

std::optional<RunnerArgs> parse_runner_args(int argc, const char* const* argv, std::string& error) {
  RunnerArgs a;
  auto number = [&](const char* option, const char* text, unsigned& into) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(text, &end, 10);
    if (!*text || *end || v > 0xffffffffUL) {
      error = std::string(option) + " expects a non-negative integer, got '" + text + "'";
      return false;
    }
    into = static_cast<unsigned>(v);
    return true;
  };
  for (int k = 1; k < argc; k += 2) {
    const std::string opt = argv[k];
    if (k + 1 >= argc) {
      error = "option '" + opt + "' expects a value";
      return std::nullopt;
    }
    const char* value = argv[k + 1];
    unsigned device = 0;
    if (opt == "--device") {
      if (!number("--device", value, device)) return std::nullopt;
      a.device = static_cast<int>(device);
    } else if (opt == "--toolchain") {
      const std::string t = value;
      if (t != "cubin" && t != "jit") {
        error = "--toolchain expects cubin or jit, got '" + t + "'";
        return std::nullopt;
      }
      a.toolchain = t == "jit" ? RunToolchain::Jit : RunToolchain::Cubin;
    } else if (opt == "--jobs") a.jobs = value;
    else if (opt == "--results") a.results = value;
    else if (opt == "--standby") a.standby = value;
    else if (opt == "--only-gpu") a.only_gpu = value;
    else if (opt == "--start") {
      if (!number("--start", value, a.start)) return std::nullopt;
    } else if (opt == "--count") {
      if (!number("--count", value, a.count)) return std::nullopt;
    } else if (opt == "--batch") {
      if (!number("--batch", value, a.batch)) return std::nullopt;
      if (a.batch == 0) {
        error = "--batch expects at least 1";
        return std::nullopt;
      }
    } else {
      error = "unknown option '" + opt + "'";
      return std::nullopt;
    }
  }
  if (a.device < 0 || a.jobs.empty() || a.results.empty()) {
    error = "--device, --jobs and --results are required";
    return std::nullopt;
  }
  return a;
}

std::size_t batch_end(const std::vector<DeviceJob>& jobs, std::size_t first, std::size_t end, std::size_t max_jobs) {
  end = std::min(end, jobs.size());
  std::size_t bytes = 0, k = first;
  for (; k < end && k - first < std::max<std::size_t>(max_jobs, 1); ++k) {
    const LaunchInput& in = jobs[k].input;
    // in and out: the tile and the registers twice, the offsets once
    const std::size_t need = 2 * (in.state.smem.size() + in.state.regs.size() * 4) + in.offsets.size() * 4;
    if (k > first && bytes + need > kMaxBatchBytes) break;
    bytes += need;
  }
  return std::max(k, std::min(first + 1, end));
}

std::optional<GoOrder> wait_for_go(const std::string& path, const std::function<void()>& heartbeat) {
  auto last_beat = std::chrono::steady_clock::now();
  for (;;) {
    std::ifstream in(path);
    if (in) {
      std::string first;
      in >> first;
      if (first == "quit") return std::nullopt;
      GoOrder g;
      std::istringstream(first) >> g.start;
      in >> g.count;
      return g;
    }
    if (std::chrono::steady_clock::now() - last_beat > std::chrono::seconds(2)) {
      if (heartbeat) heartbeat();
      last_beat = std::chrono::steady_clock::now();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
}

void write_go(const std::string& path, const std::optional<GoOrder>& order) {
  // Checked, with the free space named: a go file that cannot be written must not leave a runner waiting.
  // Never the scratch folder made again: one a signal's handler removed stays removed.
  replace_file_atomically(path, order ? std::to_string(order->start) + " " + std::to_string(order->count) + "\n"
                                    : std::string("quit\n"));
}

std::optional<GoOrder> order_to_run(const RunnerArgs& args) {
  if (args.standby.empty()) return GoOrder{.start = args.start, .count = args.count};
  // Made ready ahead of time: wait for the jobs to run.
  std::printf("ready\n");
  std::fflush(stdout);
  return wait_for_go(args.standby, [] {
    std::printf("waiting\n");
    std::fflush(stdout);
  });
}

JobRange jobs_in(const GoOrder& order, std::size_t job_count) {
  const std::size_t end =
      order.count ? std::min<std::size_t>(job_count, std::size_t{order.start} + order.count) : job_count;
  return JobRange{.first = order.start, .end = end};
}

std::string timing_line(const RunnerTiming& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "timing init_ms=%.3f modules_ms=%.3f gpu_ms=%.3f launches=%u batches=%u", t.init_ms,
                t.modules_ms, t.gpu_ms, t.launches, t.batches);
  return buf;
}

std::optional<RunnerTiming> parse_timing_line(const std::string& line) {
  RunnerTiming t;
  if (std::sscanf(line.c_str(), "timing init_ms=%lf modules_ms=%lf gpu_ms=%lf launches=%u batches=%u", &t.init_ms,
                  &t.modules_ms, &t.gpu_ms, &t.launches, &t.batches) != 5)
    return std::nullopt;
  // A duration, in milliseconds of one run: not negative, not NaN, under a day.
  for (double ms : {t.init_ms, t.modules_ms, t.gpu_ms})
    if (!(ms >= 0 && ms < 864e5)) return std::nullopt;
  return t;
}

}  // namespace ptxcts
