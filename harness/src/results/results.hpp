// What a run found: one result per (kernel, case), one verdict per claim, and what ran where.
// Reports (JSON, Markdown, JUnit XML) are written from this alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/sentence_counts.hpp"

namespace ptxcts {

// What happened to a case, as the runner records it; results/outcome.hpp says what that means to a
// reader (a fault case's crash is "faulted as the rule says"). NotSupported: the GPU, target or the
// toolkit's PTX ISA version lacks the form; Skip: not run for any other reason.
enum class Status { Pass, Fail, NotSupported, Skip, Error, Crash, Timeout };
const char* to_string(Status s);  // "pass", "fail", "not-supported", "skipped", ...
Status status_from_string(const std::string& s);  // also reads "skip" (schema 8 and before); throws std::invalid_argument

struct CaseResult {
  std::string kernel;       // catalog kernel name
  std::string family;       // ldmatrix, stmatrix, ...
  std::string instruction;  // the instruction text(s) under test
  std::string case_name;
  std::string target;   // the cubin's target, or "" when nothing ran
  std::string ptx_isa;  // the PTX ISA version the kernel was assembled at
  Status status = Status::Error;
  std::string reason;             // skip/error/crash: why; fail: a summary
  std::vector<std::string> diff;  // fail: the first mismatches, readable
  int mismatches = 0;
  bool fault_case = false;      // a case that breaks a documented rule on purpose: what the GPU
                                // did is an observation, never a failure of the run
  // A fault case whose rule the documents state, so that a fault is what the rule says (true), or an
  // edge case the manual allows, isolated like one because a GPU may fault there all the same (false):
  // a fault there is against the manual's words. JSON "fault_expected" (schema 9 on; absent: true).
  bool fault_expected = true;
  // The documents leave this case's behaviour undefined on its target (spec UndefinedOn): their words
  // and source. It ran isolated, like a fault case, and what the GPU did is an observation, never a
  // failure or a finding. JSON "undefined" (schema 10 on; absent: "").
  std::string undefined{};
  std::string observed_layout;  // wmma: where the matrix's elements sat in warp 0's fragment
                                // registers (unspecified by the manual; an observation)
  // Where the documents allow a range of results or leave them unspecified (a case that asks about
  // arithmetic), which the GPU returned, in words: an observation, never a failure; the claims the
  // case rests on quote it. JSON "observed", written only when there is one (absent: "").
  std::string observed{};
  // In a run of several GPUs of one model and driver, a fault case is run once on one of them (run/
  // fault_sharing): on another GPU than this report's, it names that GPU ("GPU 1 (GPU-..., PCI
  // 0000:1a:00.0)"); empty: this report's own GPU ran it (schema 8 on).
  std::string ran_on{};
  // Round-trip kernels of fragment instructions: whether region 1's rows came out equal to region
  // 0's input rows (what a round-trip claim rests on); absent when nothing was compared. Kept with
  // the result so that the journal, and so a resumed run, has everything a report is made of.
  std::optional<bool> roundtrip_identity;
  // An expectation of this GPU and driver (judge/expectations) matched this case's outcome: a known
  // difference, with its reason and link. It reads as known and needs no action; "" when none.
  std::string known{};
};

// A case's one spelling everywhere: "KERNEL/CASE" (its kernel's catalog name, then the case's name), as
// `ptxcts run --cases` takes it and `ptxcts list --cases`, `ptxcts diff`, the JUnit file, the pages,
// the journal and the expectations write it. Kernel and case names hold no '/', ' ' or glob character.
std::string case_id(const std::string& kernel, const std::string& case_name);
inline std::string case_id(const CaseResult& r) { return case_id(r.kernel, r.case_name); }

// NotCheckable: the run could not check the claim (no GPU, no case ran, a control case failed).
// Observed: the behaviour is undefined or the rule unenforced, so what happened is recorded, not judged.
// Undecided: the cases would contradict the claim, but every one of them needs action on this run (the
// GPU gets wrong what the claim is about), so the run says nothing of the document: no documentation
// finding, counted apart (JSON "undecided", schema 10 on).
enum class Verdict { Confirmed, Contradicted, NotCheckable, Observed, Undecided };
const char* to_string(Verdict v);
Verdict verdict_from_string(const std::string& s);  // throws std::invalid_argument

struct ClaimVerdict {
  std::string id, family, text, source, note;
  Verdict verdict = Verdict::NotCheckable;
  std::string evidence;              // why this verdict, in a sentence or two
  std::vector<std::string> checked;  // the results (kernel/case) or assemblies it rests on
  std::string known{};               // an expectation matched this verdict: its reason and link ("" none)
  // The claim is the suite's reading of what the documents give only as figures (its spec's
  // 'hypothesis: true'): contradicted, it is a finding about that reading, never a documentation
  // finding (JSON "hypothesis": true, written only where true).
  bool hypothesis = false;
};

// A contradicted claim of the documents (not a hypothesis of the suite's).
inline bool documentation_finding(const ClaimVerdict& c) { return c.verdict == Verdict::Contradicted && !c.hypothesis; }
// A hypothesis of the suite's that the run contradicts: its reading of figures does not hold here.
inline bool refuted_hypothesis(const ClaimVerdict& c) { return c.verdict == Verdict::Contradicted && c.hypothesis; }

struct RunInfo {
  std::string gpu_name;
  std::string compute_capability;  // "9.0"
  std::string sm;                  // "sm_90"
  std::string driver_version;      // "580.159.04"
  std::string driver_cuda;         // the CUDA version the driver supports, "13.0"
  std::string cuda_release;        // the toolkit that built the catalog, "13.0"
  std::string ptxas_version;       // "13.0.88"
  std::string ptx_isa;             // PTX ISA version the toolkit speaks
  std::string toolchain;           // which code ran: cubin_toolchain() or jit_toolchain() below
  std::string host;
  std::string date;  // ISO 8601, UTC
  std::string suite_version;
  std::string suite_commit;
  // Schema 8 on: which GPU exactly (so that a fleet's reports can be told apart), how many GPUs of
  // the host ran at once, where the fault cases ran, the specs' identity (runs compare only when
  // aligned: the same suite commit and specs), and the Slurm job and array task that ran it, if any.
  std::string gpu_index{};       // the device ordinal as the run saw it ("0")
  std::string gpu_uuid{};        // "GPU-8f0c...": the same card under any CUDA_VISIBLE_DEVICES
  std::string gpu_pci_bus_id{};  // "0000:18:00.0"
  std::string gpus_at_once{};    // "2"
  std::string fault_cases{};     // where the fault cases ran, in a sentence
  std::string specs{};           // the identity of the specs and kernel skeletons (catalog origin's)
  std::string slurm_job{};       // "$SLURM_ARRAY_JOB_ID" (else $SLURM_JOB_ID), "" outside Slurm
  std::string slurm_task{};      // "$SLURM_ARRAY_TASK_ID", "" outside an array job
};

// RunInfo::toolchain, as `ptxcts run` writes it: "precompiled cubin (ptxas 13.0.88)" (the catalog's
// cubins) or "driver JIT (cuModuleLoadDataEx), driver 580.159.04 (CUDA 13.0)" (the kernels' PTX,
// compiled by the driver). Reports before the JIT column say "precompiled cubin (ptxas, ahead of time)".
std::string cubin_toolchain(const std::string& ptxas_version);
std::string jit_toolchain(const std::string& driver_version, const std::string& driver_cuda);
bool ran_driver_jit(const RunInfo& info);  // the report's code was compiled by the driver's JIT

// Where a run's time went (seconds of wall time, but the sums over device runners), so that speed
// can be read from the report. JSON: "timing" (schema 6 on).
struct RunTiming {
  double wall = 0;          // process start to the reports written
  double first_launch = 0;  // process start to the first batch handed to the GPU
  double plan = 0;          // every case's inputs made (and the catalog's cubins checked)
  double runner_init = 0;   // the device runners' context creation, summed over runners (standbys overlap)
  double module_loads = 0;  // cubins loaded, summed over runners
  double launches = 0;      // batches on the GPU (copies, launches, synchronize), summed over runners
  double faults = 0;        // the fault line's wall time (isolated cases, one runner each fault)
  double compare = 0;       // results checked against the reference
  double reports = 0;       // the report files written
  int launch_count = 0, batch_count = 0, runner_starts = 0;
  int peak_rss_mib = 0;  // of `ptxcts` itself (getrusage), not of its device runners
  bool operator==(const RunTiming&) const = default;
};

// Something an earlier run reported that this run leaves out on purpose, and why. `ptxcts diff`
// counts anything that went missing as a regression unless the later report withdraws it here.
// JSON: {"what": ..., "reason": ...} in the report's "withdrawn" list (schema 4 on).
struct Withdrawal {
  std::string what;    // as `ptxcts diff` names it: "KERNEL / CASE" (a result, and its observed
                       // layout with it), "claim ID", or "layout KERNEL / CASE" (the layout alone)
  std::string reason;  // never empty
};

// What a kernel that ran became on its target (the catalog's SASS, assemble/catalog_sass): its
// opcodes, the mnemonics its family's specs expect for the instruction under test, and those present.
struct KernelSass {
  std::string kernel, target;
  std::vector<std::string> opcodes, expected, matched;
  std::string unavailable;  // non-empty: no SASS, and why
};

// The SASS of the kernels a run ran; JSON: "sass" (schema 7 on).
struct RunSass {
  std::string disassembler;  // the one that made it ("cuobjdump 13.5.37 (of CUDA 13.5; ...)")
  std::string unavailable;   // none at all: why ("no disassembler: ...")
  std::vector<KernelSass> kernels;
  const KernelSass* find(const std::string& kernel, const std::string& target) const;
};

struct RunReport {
  // 2: status timeout, fault_case; 3: observed_layout; 4: withdrawn, roundtrip_identity; 5: verdict
  // observed; 6: timing; 7: sass; 8: the GPU's index, UUID and PCI bus id, GPUs at once, where the
  // fault cases ran (and each result's ran_on), the specs' identity, the Slurm job and task; 9: the
  // outcome vocabulary (status not-supported and skipped, each result's outcome, totals of every
  // outcome over every case) and the summary (verdict line, exit status, counts); 10: each result's
  // `undefined` (the documents' words that leave it undefined on its target) and the outcome
  // undefined; the claims' verdict undecided and the summary's count of them.
  // Reads 10 down to 2.
  static constexpr int kSchemaVersion = 10;
  RunInfo info;
  RunTiming timing;  // zeros where the report predates it
  std::vector<CaseResult> results;
  std::vector<ClaimVerdict> claims;
  std::vector<Withdrawal> withdrawn;  // `ptxcts run` withdraws nothing (yet): always empty from it
  RunSass sass;                       // empty where the report predates it
  // The expectations files (judge/expectations) that spoke for this GPU and driver, and the lines of
  // those expectations that matched nothing in this run. JSON: "expectations" (schema 9 on).
  std::vector<std::string> expectations_applied{}, expectations_unmatched{};
  // Per section of the manual (specs/sentences.yaml), how many sentences this run judged (by its
  // toolkit's audit and by the GPU). JSON: "sentences", optional (a report written before it lacks it).
  std::vector<SentenceCount> sentences{};
};

}  // namespace ptxcts
