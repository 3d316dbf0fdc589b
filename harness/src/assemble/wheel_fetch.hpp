// Fetching another toolkit's ptxas, or its disassembler (cuobjdump, nvdisasm): the NVIDIA wheel of
// that CUDA release from PyPI, through pip (`pip download --no-deps`, the ordinary client; no other
// download path), with only that binary unpacked (unzip) into the cache as
// CACHE/cuda-<release>/bin/<tool>, where the toolkit search finds a disassembler beside its ptxas. Everything happens
// in a temporary folder inside the cache, checked (the wheel's integrity, ptxas runs and names the release asked for),
// then renamed into place: a version that does not exist, no network, a damaged wheel leave the cache as it was, with
// one message saying which.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ptxcts {

struct FetchTools {
  std::vector<std::string> pip{"python3", "-m", "pip"};  // $PTXCTS_PIP (one program) replaces it
  std::string unzip = "unzip";
  double timeout_seconds = 900;  // one pip download
};

// The tools as this process is told ($PTXCTS_PIP).
FetchTools default_fetch_tools();

enum class FetchOutcome { Fetched, AlreadyThere, NoSuchVersion, RegistryUnreachable, BadWheel, Failed };

struct FetchResult {
  FetchOutcome outcome = FetchOutcome::Failed;
  std::string release;  // "12.4"
  std::string tool = "ptxas";
  std::string binary;   // where it now is
  std::string message;  // one line: what happened
  bool ok() const { return outcome == FetchOutcome::Fetched || outcome == FetchOutcome::AlreadyThere; }
};

// The binaries that can be fetched: ptxas (wheel nvidia-cuda-nvcc), cuobjdump, nvdisasm
// (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm; PyPI carries those from CUDA 13.2 on).
inline const std::vector<std::string> kFetchableTools{"ptxas", "cuobjdump", "nvdisasm"};

// The pip requirement for a CUDA version and tool ("11.8" -> "nvidia-cuda-nvcc-cu11==11.8.*", "13.5"
// -> "nvidia-cuda-nvcc==13.5.*", "12.4.131" -> "nvidia-cuda-nvcc-cu12==12.4.131"; ("13.5", "cuobjdump")
// -> "nvidia-cuda-cuobjdump==13.5.*"). Throws std::invalid_argument for anything that is not
// MAJOR.MINOR[.PATCH] with MAJOR >= 11 (the first CUDA release whose ptxas PyPI carries), or a tool
// not in kFetchableTools.
std::string pip_requirement(const std::string& version, const std::string& tool = "ptxas");

// Fetches `tool` of `version` into `cache` unless one of that release is there already (`refetch`
// replaces it). ptxas brings its folder into place whole; a disassembler joins the folder of its
// release's ptxas (one rename of the file), or makes it.
FetchResult fetch_toolkit(const std::string& version, const std::filesystem::path& cache, const FetchTools& tools,
                          bool refetch = false, const std::string& tool = "ptxas");

}  // namespace ptxcts
