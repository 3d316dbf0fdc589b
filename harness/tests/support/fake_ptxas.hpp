// Stand-in ptxas scripts: killed, hanging, out of memory, silent, rejecting or accepting, each in a
// fresh directory that counts its runs.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "assemble/toolchain.hpp"

namespace ptxcts::test {

// ptxas is called as: ptxas -arch=<target> -o <cubin> <ptx>.
inline const std::string kKilled = "kill -KILL $$\n";
inline const std::string kHangs = "sleep 30\n";  // past the 0.5 s limit the tests give it
inline const std::string kOutOfMemory = "echo 'ptxas fatal   : out of memory'\nexit 1\n";
inline const std::string kNoCubin = "exit 0\n";
inline const std::string kSilentFailure = "exit 2\n";
inline const std::string kRejects =
    "echo \"ptxas $4, line 1; error   : Unknown symbol 'bogus'\"\n"
    "echo 'ptxas fatal   : Ptx assembly aborted due to errors'\nexit 255\n";
// A 64-byte CUDA ELF header for the target (-arch=sm_NN in $1): what the cache checks a cubin by.
inline const std::string kAccepts =
    "sm=${1#-arch=sm_}; sm=${sm%[af]}\n"
    "printf '\\177ELF\\2\\1\\1\\101\\10\\0\\0\\0\\0\\0\\0\\0\\2\\0\\276\\0' > \"$3\"\n"
    "printf '\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0' >> \"$3\"\n"
    "printf \"\\\\002\\\\$(printf %03o $sm)\\\\000\\\\006\" >> \"$3\"\n"
    "printf '\\100\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0' >> \"$3\"\n";

// A stand-in ptxas for whole commands: answers --version, --help and --list-version like ptxas 13.0
// with the one target sm_90, accepts every parse-only probe, and does `assembles` for an assembly.
inline std::string whole_command_ptxas(const std::string& assembles = kAccepts) {
  return "#!/bin/sh\n"
         "case \"$1\" in\n"
         "  --version) echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0;;\n"
         "  --help) echo \"--gpu-name  Allowed values for this option: 'compute_90','sm_90'. "
         "Default value: 'sm_75'. --list-version\"; exit 0;;\n"
         "  --list-version) printf '8.8\\n9.0\\n'; exit 0;;\n"
         "esac\n"
         "[ \"$2\" = -o ] || exit 0\n" +  // parse-only probes: -arch=X FILE -o /dev/null
         assembles;
}

// A stand-in ptxas: a shell script in a fresh directory that counts its runs there, then does
// `body`. The time limit is short only for the one that hangs, so that a slow start is no timeout.
struct FakePtxas {
  std::filesystem::path dir;
  Toolchain tc;
  explicit FakePtxas(const std::string& body) {
    const double timeout_seconds = body == kHangs ? 0.5 : 60;
    static int made = 0;
    dir = std::filesystem::temp_directory_path() /
          ("ptxcts-fake-ptxas-" + std::to_string(::getpid()) + "-" + std::to_string(made++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "catalog" / "cache");
    std::filesystem::path script = dir / "ptxas";
    std::ofstream(script) << "#!/bin/sh\necho run >> '" << (dir / "runs").string() << "'\n" << body;
    ::chmod(script.c_str(), 0755);
    tc.ptxas = script.string();
    tc.version = "13.0.88";
    tc.release = "13.0";
    tc.real_targets = {"sm_90"};
    tc.timeout_seconds = timeout_seconds;
  }
  ~FakePtxas() { std::filesystem::remove_all(dir); }
  int runs() const {
    std::ifstream in(dir / "runs");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  // Files in the cache with this name ending (".rejected", ".batch.json", ...).
  int cached(const std::string& ending) const {
    int n = 0;
    for (auto const& e : std::filesystem::directory_iterator(dir / "catalog" / "cache")) {
      std::string name = e.path().filename().string();
      n += name.size() > ending.size() && name.compare(name.size() - ending.size(), ending.size(), ending) == 0;
    }
    return n;
  }
};

}  // namespace ptxcts::test
