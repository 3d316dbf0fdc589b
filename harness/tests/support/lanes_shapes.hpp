// The kernels of the undefined cases whose lanes 16 to 31 leave the instruction (kinds/lanes_shape.hpp:
// exited, predicated off, another form on a divergent path), checked the same way for every kind that
// has them: the one kernel that takes the case, its name, its PTX around the instruction, and ptxas
// assembling it for each target the form exists on (skipped where no ptxas is found).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kinds/kinds.hpp"
#include "support/spec_fixture.hpp"
#include "support/temp_dir.hpp"
#include "util/subprocess.hpp"

namespace ptxcts::test {

struct LanesShapeCase {
  std::string name;                  // the case
  std::string suffix;                // of its kernel's name: upper_exited, upper_predicated_off, upper_other_form
  std::string plain;                 // the plain kernel of the same form
  std::string other;                 // upper_other_form: the other form's instruction, as emitted
  std::vector<std::string> targets;  // to assemble for (with `ptx`)
};

// The ptxas of the toolkit at hand ("" for none).
inline std::string find_ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// ptxas's output where it rejects `ptx` for `target` ("" where it assembles it).
inline std::string ptxas_rejects(const std::string& ptxas, const std::string& ptx, const std::string& target) {
  TempDir t("lanes-shape");
  const auto file = t.dir / "kernel.ptx";
  std::ofstream(file) << ptx;
  const ProcessResult r =
      run_process({ptxas, "-arch=" + target, "-o", (t.dir / "kernel.cubin").string(), file.string()}, 120);
  return r.exit_code == 0 ? "" : "exit " + std::to_string(r.exit_code) + ": " + r.output;
}

// The one kernel of `suite` that takes the case, as `shape` says it looks, its PTX (`skeleton`,
// PTX ISA `ptx`) with the lanes' test, then the exit, the predicate or the branch past the other form,
// then the instruction; the plain kernel without any of it.
inline void expect_lanes_shape(const Suite& suite, const LanesShapeCase& shape, const std::string& skeleton,
                               PtxVersion ptx) {
  SCOPED_TRACE(shape.name);
  const CaseSpec* c = suite.specs.find_case(shape.name);
  ASSERT_TRUE(c);
  std::vector<const KernelPlan*> taking;
  for (auto const& k : suite.kernels)
    if (kind_of(k).takes(k, *c)) taking.push_back(&k);
  ASSERT_EQ(taking.size(), 1u);
  const KernelPlan& k = *taking[0];
  EXPECT_EQ(k.name, shape.plain + "." + shape.suffix);
  EXPECT_FALSE(k.audited);
  const KernelPlan* plain = suite.find_kernel(shape.plain);
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->audited);
  EXPECT_EQ(plain->steps, k.steps);
  for (auto const& other : suite.specs.cases.cases) EXPECT_EQ(kind_of(k).takes(k, other), &other == c) << other.name;
  const std::string text = kind_of(k).instruction_text(k), code = kind_of(k).emit(skeleton, k, "sm_90", ptx);
  EXPECT_EQ(text, kind_of(*plain).instruction_text(*plain));
  const std::size_t body = code.find("// 4. under test"), test = code.find("setp.lt.u32         %p0, %t10, 16;", body),
                    at = code.rfind(text);
  ASSERT_NE(body, std::string::npos) << code;
  ASSERT_NE(test, std::string::npos) << code;
  ASSERT_NE(at, std::string::npos) << code;
  EXPECT_LT(test, at) << code;
  if (shape.suffix == "upper_exited") {
    EXPECT_LT(code.find("@!%p0 exit;", test), at) << code;
  } else if (shape.suffix == "upper_predicated_off") {
    EXPECT_EQ(code.find("    @%p0 " + text + "\n"), at - 9) << code;
    EXPECT_EQ(code.find("exit;"), std::string::npos) << code;
  } else {
    const std::size_t branch = code.find("@%p0 bra            LANES_LOW;", test), other = code.find(shape.other, test);
    EXPECT_LT(branch, other) << code;
    EXPECT_EQ(code.find("LANES_LOW:\n    " + text + "\nLANES_DONE:\n", other), at - 15) << code;
  }
  EXPECT_EQ(kind_of(*plain).emit(skeleton, *plain, "sm_90", ptx).find("%laneid"), std::string::npos);
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) return;
  for (auto const& target : shape.targets)
    EXPECT_EQ(ptxas_rejects(ptxas, kind_of(k).emit(skeleton, k, target, ptx), target), "") << target << "\n" << code;
}

}  // namespace ptxcts::test
