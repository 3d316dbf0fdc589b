#include "results/results.hpp"

#include <stdexcept>

namespace ptxcts {

namespace {
constexpr const char* kJitPrefix = "driver JIT";
}

std::string cubin_toolchain(const std::string& ptxas_version) {
  return "precompiled cubin (ptxas " + ptxas_version + ")";
}

std::string jit_toolchain(const std::string& driver_version, const std::string& driver_cuda) {
  return std::string(kJitPrefix) + " (cuModuleLoadDataEx), driver " + driver_version + " (CUDA " + driver_cuda + ")";
}

bool ran_driver_jit(const RunInfo& info) { return info.toolchain.starts_with(kJitPrefix); }

std::string case_id(const std::string& kernel, const std::string& case_name) { return kernel + "/" + case_name; }

const char* to_string(Status s) {
  switch (s) {
    case Status::Pass: return "pass";
    case Status::Fail: return "fail";
    case Status::NotSupported: return "not-supported";
    case Status::Skip: return "skipped";
    case Status::Error: return "error";
    case Status::Crash: return "crash";
    case Status::Timeout: return "timeout";
  }
  return "error";
}

Status status_from_string(const std::string& s) {
  if (s == "skip") return Status::Skip;  // schema 8 and before
  for (Status v : {Status::Pass, Status::Fail, Status::NotSupported, Status::Skip, Status::Error, Status::Crash,
                   Status::Timeout})
    if (s == to_string(v)) return v;
  throw std::invalid_argument("unknown status '" + s +
                              "'; expected pass, fail, not-supported, skipped, error, crash or timeout");
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Confirmed: return "confirmed";
    case Verdict::Contradicted: return "contradicted";
    case Verdict::NotCheckable: return "not-checkable";
    case Verdict::Observed: return "observed";
    case Verdict::Undecided: return "undecided";
  }
  return "not-checkable";
}

Verdict verdict_from_string(const std::string& s) {
  for (Verdict v :
       {Verdict::Confirmed, Verdict::Contradicted, Verdict::NotCheckable, Verdict::Observed, Verdict::Undecided})
    if (s == to_string(v)) return v;
  throw std::invalid_argument("unknown verdict '" + s +
                              "'; expected confirmed, contradicted, not-checkable, observed or undecided");
}

const KernelSass* RunSass::find(const std::string& kernel, const std::string& target) const {
  for (auto const& k : kernels)
    if (k.kernel == kernel && k.target == target) return &k;
  return nullptr;
}

}  // namespace ptxcts
