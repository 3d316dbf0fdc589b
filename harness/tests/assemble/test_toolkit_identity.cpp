// Issue 30: a ptxas in the toolkit cache is checked, not believed. One that says CUDA 12.4 but is
// 13.0 was listed as "CUDA 12.4 ... PTX ISA 9.0, 23 targets: sm_100 ..."; a cuda-11.8/ folder
// holding a "12.4" was folded in without a word; a cached file was never checked again. Stand-in
// ptxas scripts in a temporary cache; no network.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "assemble/toolkit_identity.hpp"
#include "assemble/toolkits.hpp"
#include "spec/spec_loader.hpp"
#include "support/temp_dir.hpp"

using namespace ptxcts;
using namespace ptxcts::test;
namespace fs = std::filesystem;

namespace {

// A stand-in ptxas that says CUDA `release` and lists `targets`; --list-version names `listed`;
// a module (-arch=...) is accepted (exit 0) where `accepts_modules`. Each module run is logged.
void liar(const fs::path& p, const std::string& release, const std::string& listed, const std::string& targets,
          bool accepts_modules) {
  write_script(p, "case \"$1\" in\n"
                  "  --version) echo 'Cuda compilation tools, release " + release + ", V" + release + ".99';;\n"
                  "  --help) echo \"--gpu-name  Allowed values for this option: " + targets +
                      ". Default value: 'sm_75'. --list-version\";;\n"
                  "  --list-version) printf '7.8\\n" + listed + "\\n';;\n"
                  "  *) echo \"$1 $5\" >> '" + (p.parent_path() / "modules").string() + "'; " +
                  (accepts_modules ? "exit 0" : "echo 'ptxas fatal   : Unsupported .version'; exit 255") + ";;\nesac\n");
}

int module_runs(const fs::path& ptxas) {
  std::ifstream in(ptxas.parent_path() / "modules");
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

struct Cache {
  TempDir t{"identity"};
  fs::path ptxas(const std::string& folder) const { return t.dir / "cache" / folder / "bin" / "ptxas"; }
  std::vector<FoundToolkit> find() const {
    return find_toolkits({.explicit_ptxas = {},
                          .env = "",
                          .installed_root = t.dir / "none",
                          .path = "",
                          .cache = t.dir / "cache",
                          .table = load_target_table(PTXCTS_SOURCE_DIR "/specs")});
  }
};

}  // namespace

TEST(ToolkitIdentity, APtxasThatSaysAnOlderReleaseThanItIsIsRefusedNamingBoth) {
  Cache c;
  liar(c.ptxas("cuda-12.4"), "12.4", "9.0", "'sm_75','sm_90','sm_100','sm_100a'", false);
  auto found = c.find();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].tc);
  EXPECT_EQ(found[0].problem, c.ptxas("cuda-12.4").string() +
                                  ": says CUDA 12.4 but speaks PTX ISA 9.0 (ptxas --list-version) and lists sm_100, "
                                  "sm_100a (CUDA 12.4 speaks PTX ISA 8.4, knows no sm_100, sm_100a): refused");
  try {
    select_toolkit(found, "12.4");
    FAIL() << "a lying 12.4 was selected";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("; refused: " + found[0].problem), std::string::npos) << e.what();
  }
}

TEST(ToolkitIdentity, WhatItAcceptsOutweighsWhatItLists) {
  Cache c;  // lists 8.4, as 12.4 does, but assembles any .version: the newest it accepts is named
  liar(c.ptxas("cuda-12.4"), "12.4", "8.4", "'sm_75','sm_90'", true);
  auto found = c.find();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].problem.find(": says CUDA 12.4 but accepts PTX ISA 9.5 (CUDA 12.4 speaks PTX ISA 8.4): refused"),
            std::string::npos)
      << found[0].problem;
}

TEST(ToolkitIdentity, AFolderOfOneReleaseHoldingAnotherIsRefused) {
  Cache c;
  liar(c.ptxas("cuda-11.8"), "12.4", "8.4", "'sm_75','sm_90'", false);
  auto found = c.find();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].problem, c.ptxas("cuda-11.8").string() +
                                  ": the folder cuda-11.8 says CUDA 11.8 but ptxas says CUDA 12.4 (V12.4.99): refused");
}

TEST(ToolkitIdentity, AnHonestOneIsSealedJudgedOnceAndRefusedOnceChanged) {
  Cache c;
  const fs::path p = c.ptxas("cuda-12.4");
  liar(p, "12.4", "8.4", "'sm_75','sm_90'", false);
  auto found = c.find();
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].tc) << found[0].problem;
  EXPECT_EQ(module_runs(p), 1);  // .version 8.5 refused, as 12.4's ptxas does
  EXPECT_TRUE(fs::exists(seal_path(p)));
  c.find();
  EXPECT_EQ(module_runs(p), 1);  // the verdict is kept by seal: no probe the second time
  fs::last_write_time(p, fs::last_write_time(p) + std::chrono::hours(1));  // touched, not changed: still good
  EXPECT_TRUE(c.find()[0].tc);
  std::ofstream(p, std::ios::app) << "# another file now\n";
  found = c.find();
  EXPECT_FALSE(found[0].tc);
  EXPECT_EQ(found[0].problem.rfind(p.string() + ": is not the file sealed at its first use (", 0), 0u)
      << found[0].problem;
  EXPECT_NE(found[0].problem.find(": refused (ptxcts toolkits fetch 12.4 --refetch replaces it)"), std::string::npos)
      << found[0].problem;
}
