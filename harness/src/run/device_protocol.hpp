// The contract between `ptxcts run` and a device runner (`ptxcts-device`, or a stand-in such as
// the tests' fake_device_runner): a runner that keeps it can replace the real one.
//
// Command line:
//   RUNNER --info                          prints the GPUs as a JSON array of objects with ordinal,
//                                          name, major, minor, driver_cuda, driver_version, and (when
//                                          the driver tells) uuid ("GPU-...") and pci_bus_id; exit 0.
//                                          Any other exit: no usable GPU (its output says why).
//   RUNNER --device N --jobs F --results R [--start K] [--count M] [--batch B] [--standby GO] [--only-gpu UUID]
//          [--toolchain cubin|jit]         runs jobs K, K+1, ... of the job file F on GPU N (at most M
//                                          of them; 0 or absent: to the end), B launches to a batch
//                                          (default 1). Each job's module is a cubin (the default),
//                                          or with --toolchain jit the kernel's PTX text, which the
//                                          driver's own compiler builds (cuModuleLoadDataEx). With --standby the runner
//                                          makes its context, prints "ready", and waits until the file GO exists; it
//                                          holds "START COUNT" (run those jobs, as --start/--count would) or "quit". A
//                                          standby runner prints "waiting" every few seconds, and reads F only once GO
//                                          exists (F need not exist before). With --only-gpu UUID the
//                                          runner sees that GPU alone (CUDA_VISIBLE_DEVICES=UUID before
//                                          cuInit) and runs on it; N then only names it.
// Job file (written once by `ptxcts run`, read-only for the runner): the magic "PTXCTSJ2", a u32
//   count, then per job: u32 id, string module (absolute path: the cubin, or the .ptx under jit), string entry, string
//   label
//   ("kernel/case"), i32 warps, tile_bytes, steps, regs, then the vectors offsets (u32), smem (u8),
//   regs (u32). Strings are a u32 length and the bytes; vectors a u64 length and the elements;
//   everything little-endian.
// A batch (batch_end below says which jobs) is one copy in, its launches in order on one stream,
//   one copy out and one synchronize; the runner prints "batch K N" (job index K, N jobs) before it.
// Results file: the runner appends one record per launch, "PCR1", u32 id, u8 outcome (1 ok, 0 the
//   launch failed, 2 the driver refused the module, 3 the module could not be loaded: see
//   ModuleLoad), string error, the vectors smem and regs, and flushes it before printing the progress line "done ID
//   ok|fault" on stdout (a silent runner is killed by `ptxcts run`'s watchdog: a hung launch is a `timeout`). A record
//   cut short (the runner died while writing) is ignored. While it loads a batch's modules (the driver's JIT may take
//   seconds) a runner may print "loading"; it means only that it is alive. Before it exits the runner prints "timing
//   init_ms=X modules_ms=X gpu_ms=X launches=N batches=N" (its own clock).
// Exit codes (DeviceExit): 0 every job asked for has its record; 3 a device fault was recorded
//   (the context is unusable) and the runner stopped: `ptxcts run` starts a fresh runner from the
//   next job; 5 a batch of several launches faulted: nothing of that batch was recorded (which
//   launch faulted is unknown), and `ptxcts run` runs its jobs again one at a time; 2 bad command
//   line or unreadable job file, 4 no usable device: nothing more can run; 6 the results file could
//   not be written (a full disk, a quota: ResultsWriter): the runner printed "results-unwritable
//   cannot write R: REASON (N free on its filesystem)" and stopped; its records before stand, the jobs
//   after have none. That is the host's failure, not the GPU's: `ptxcts run` stops with the message,
//   and --resume runs those jobs again. Exit 0 with records missing breaks the protocol.
//   Death by a signal, or any other exit, means the launch after the last record killed it (or,
//   in a batch of several, one of the batch's launches not yet recorded): that launch is a `crash`,
//   and a fresh runner goes on from the one after (a batch's unrecorded jobs are run one at a time).
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/launch.hpp"

namespace ptxcts {

class CheckedFile;

enum DeviceExit : int {
  kDeviceDone = 0,
  kDeviceUsage = 2,
  kDeviceFaulted = 3,
  kDeviceUnusable = 4,
  kDeviceBatchFaulted = 5,
  kDeviceResultsUnwritable = 6
};

// What a runner loads for each job: the cubin ptxas made, or the PTX the driver compiles itself.
enum class RunToolchain { Cubin, Jit };
const char* to_string(RunToolchain t);  // "cubin", "jit": the runner's --toolchain value

struct DeviceJob {
  std::uint32_t id = 0;
  std::string module;       // absolute path: the cubin, or (--toolchain jit) the kernel's .ptx
  std::string kernel_name;  // entry point in the cubin
  std::string label;        // "suite kernel/case", for messages (and for the fake device runner)
  LaunchInput input;
};

// Why a job whose launch did not happen has no result (ok is false): its module did not load.
// Refused: the driver does not know the module's PTX ISA version or target (JIT), so the case cannot
// run here (a skip); Failed: any other load failure (an error, with the JIT log).
enum class ModuleLoad { Loaded, Refused, Failed };

struct DeviceResult {
  std::uint32_t id = 0;
  bool ok = false;
  std::string error;                     // the CUDA error, when !ok (with the JIT log's first line or all of it)
  LaunchState state;                     // when ok
  ModuleLoad load = ModuleLoad::Loaded;  // when !ok: Loaded means the launch itself failed
};

// What the driver's JIT says when it cannot compile a PTX module for this device (its error's name
// and the log): true where that is a refusal, not an error. Refusals: a PTX ISA version newer than
// the driver knows (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), no code for this GPU
// (CUDA_ERROR_NO_BINARY_FOR_GPU), or an invalid-PTX error whose log says the .version or .target is
// unknown to it.
bool jit_refusal(const std::string& error_name, const std::string& log);
// A log's first non-empty line, trimmed ("" if none).
std::string first_line(const std::string& log);

// Writes a job file a job at a time, so that its writer need not hold every job's inputs at once
// (the count at the top is filled in by finish(); `out` must be seekable, as a file is).
class JobFileWriter {
 public:
  explicit JobFileWriter(std::ostream& out);
  std::uint64_t add(const DeviceJob& job);  // where the job starts in `out` (for read_job_at)
  void finish();
  std::uint32_t count() const { return count_; }

 private:
  std::ostream& out_;
  std::streampos base_ = 0;  // where the file starts in out_
  std::uint64_t at_ = 12;    // the next job's offset from base_ (after the magic and the count)
  std::uint32_t count_ = 0;
};

// `offsets`, if given, receives where each job starts in `out` (for read_job_at).
void write_jobs(std::ostream& out, const std::vector<DeviceJob>& jobs, std::vector<std::uint64_t>* offsets = nullptr);
std::vector<DeviceJob> read_jobs(std::istream& in);  // throws std::runtime_error
// The job that starts at `offset` of a job file (as write_jobs said); throws std::runtime_error.
DeviceJob read_job_at(std::istream& in, std::uint64_t offset);

void write_result(std::ostream& out, const DeviceResult& r);

// A runner's results file, appended to a record at a time, every byte and the close checked
// (util/checked_file): a record that cannot be written whole throws ResultsUnwritable, whose what()
// is "cannot write R: REASON (N free on its filesystem)", never a record silently missing.
struct ResultsUnwritable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
class ResultsWriter {
 public:
  explicit ResultsWriter(const std::string& path);  // opened for appending
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  void write(const DeviceResult& r);         // on disk (flushed) when it returns
  void write_bytes(const std::string& raw);  // anything else (the fake runner's garbage), flushed
  void close();

 private:
  template <class F>
  void checked(F write);
  std::unique_ptr<CheckedFile> file_;
};
// What a runner does when its results cannot be written: says so on stdout in one line,
// "results-unwritable WHY", and gives the status to exit with (kDeviceResultsUnwritable).
int results_unwritable(const ResultsUnwritable& e);
// WHY of such a line; nullopt for any other line.
std::optional<std::string> parse_results_unwritable_line(const std::string& line);
// Reads the next complete result; on a truncated record, leaves the stream where it was.
std::optional<DeviceResult> read_result(std::istream& in);
// Reads every complete result; a truncated last record (the runner died mid-write) is dropped.
std::vector<DeviceResult> read_results(std::istream& in);

// A runner's command line (both runners read it here, so that they cannot disagree).
struct RunnerArgs {
  int device = -1;
  std::string jobs, results, standby;
  // --only-gpu GPU-<uuid>: the runner sees this GPU alone (CUDA_VISIBLE_DEVICES, set before cuInit),
  // so that its driver start and end touch no other GPU of the host; --device then counts from it.
  std::string only_gpu;
  unsigned start = 0, count = 0, batch = 1;  // count 0: to the end
  RunToolchain toolchain = RunToolchain::Cubin;
};
// nullopt: a bad command line, said in `error`.
std::optional<RunnerArgs> parse_runner_args(int argc, const char* const* argv, std::string& error);

// The jobs one batch takes, [first, returned): at most `max_jobs`, and no more buffer bytes than a
// batch may move (kMaxBatchBytes), but always at least one job; never past `end`.
constexpr std::size_t kMaxBatchBytes = std::size_t{64} << 20;
std::size_t batch_end(const std::vector<DeviceJob>& jobs, std::size_t first, std::size_t end, std::size_t max_jobs);

// A standby runner's go file: which jobs to run, or nullopt for "quit". wait_for_go polls for the
// file (a few hundred microseconds apart), calling `heartbeat` every few seconds while it waits.
struct GoOrder {
  unsigned start = 0, count = 0;
};
std::optional<GoOrder> wait_for_go(const std::string& path, const std::function<void()>& heartbeat);
// Written by `ptxcts run` (atomically: a temporary file renamed into place).
void write_go(const std::string& path, const std::optional<GoOrder>& order);

// The jobs a runner runs, [first, end): from its command line, or, with --standby, from its go
// file, after printing "ready" and while printing "waiting" (stdout). nullopt: told to quit.
// A runner asks order_to_run before it reads the job file: a standby runner may be started before
// its job file exists (`ptxcts run` starts one before it has loaded the specs), and reads it only
// once told to go; jobs_in then gives the range of the job file's count.
struct JobRange {
  std::size_t first = 0, end = 0;
};
std::optional<GoOrder> order_to_run(const RunnerArgs& args);
JobRange jobs_in(const GoOrder& order, std::size_t job_count);

// What a runner says of its own time, from its "timing ..." line.
struct RunnerTiming {
  double init_ms = 0, modules_ms = 0, gpu_ms = 0;
  unsigned launches = 0, batches = 0;
};
std::string timing_line(const RunnerTiming& t);
std::optional<RunnerTiming> parse_timing_line(const std::string& line);

}  // namespace ptxcts
