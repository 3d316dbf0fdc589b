// Hang limits that hold as documented: ptxas runs side by side never count a third hang, and a
// question to ptxas that hangs says so.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "assemble/toolchain.hpp"
#include "support/fake_ptxas.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(PtxasHangs, RunsSideBySideCountTwoHangsNeverThree) {
  // Before: each of four runs started before the second hang was counted hung to its own limit and
  // counted, "(3 of 2 hangs allowed)" and "(4 of 2 ...)"; a catalog build with -j N paid N limits.
  FakePtxas ptxas(kHangs);  // killed after 0.5 s
  testing::internal::CaptureStderr();
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::optional<ProcessResult>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < got.size(); ++k)
    threads.emplace_back([&, k] { got[k] = ptxas.tc.run({"-arch=sm_90", "-o", "/dev/null", "x.ptx"}); });
  for (auto& t : threads) t.join();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 3.0);
  EXPECT_EQ(ptxas.tc.hangs->load(), Toolchain::kHangsBeforeGivingUp);
  int counted = 0;
  for (auto const& r : got) counted += r && r->timed_out;
  EXPECT_EQ(counted, 2);  // the other two: abandoned (nullopt), not hangs
  int hang_lines = 0;
  for (std::size_t at = 0; (at = said.find("hangs allowed", at)) != std::string::npos; ++at) ++hang_lines;
  EXPECT_EQ(hang_lines, 2) << said;
  EXPECT_NE(said.find("ptxas hung: killed after 0.5 s (1 of 2 hangs allowed)\n"), std::string::npos) << said;
  EXPECT_NE(said.find("ptxas hung: killed after 0.5 s (2 of 2 hangs allowed; the remaining assemblies are abandoned)\n"),
            std::string::npos)
      << said;
  EXPECT_FALSE(ptxas.tc.run({"-arch=sm_90"}));  // and nothing more is run
}

TEST(PtxasHangs, AVersionQueryThatHangsSaysItHung) {
  // Before: "cannot run ptxas ('...'): " with nothing after the colon (the output of a killed ptxas).
  FakePtxas ptxas("exit 0\n");
  const std::filesystem::path script = ptxas.dir / "hangs-on-version";
  std::ofstream(script) << "#!/bin/sh\nsleep 30\n";
  ::chmod(script.c_str(), 0755);
  try {
    Toolchain::discover(script.string(), "", 0.3);
    FAIL() << "a ptxas whose --version hangs was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot run ptxas ('" + script.string() + "'): it hung, and was killed after 0.3 s");
  }
  std::ofstream(script) << "#!/bin/sh\nexit 3\n";
  try {
    Toolchain::discover(script.string(), "", 5);
    FAIL() << "a ptxas whose --version fails was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot run ptxas ('" + script.string() + "'): it exited with 3 without a word");
  }
}
