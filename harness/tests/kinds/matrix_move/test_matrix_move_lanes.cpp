// Issue 42, part 4: the undefined cases of cases.yaml's matrix_move block, lanes 16 to 31 of each warp
// exiting before the ldmatrix, stmatrix or movmatrix, skipping it under a predicate, or running the
// .trans form on a divergent path: each on a kernel of its own, the plain kernel's with the code
// around its instruction, which ptxas assembles on each target the form exists on.
#include <gtest/gtest.h>

#include "kinds/matrix_move/matrix_move_emitter.hpp"
#include "support/lanes_shapes.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(MatrixMoveUndefined, LanesShapesTakeOneKernelEachWithTheExitThePredicateOrTheOtherFormAroundIt) {
  const std::string ld = "ldmatrix.sync.aligned.m8n8.x4.b16_a64", st = "stmatrix.sync.aligned.m8n8.x4.b16_a64";
  const std::vector<std::string> from_sm75 = {"sm_75", "sm_90"}, sm90 = {"sm_90"};
  const LanesShapeCase shapes[] = {
      {"ldmatrix-undefined-upper-lanes-exited", "upper_exited", ld, "", from_sm75},
      {"ldmatrix-undefined-upper-lanes-predicated-off", "upper_predicated_off", ld, "", from_sm75},
      {"ldmatrix-undefined-upper-lanes-other-form", "upper_other_form", ld,
       "ldmatrix.sync.aligned.m8n8.x4.trans.b16 {%frag0, %frag1, %frag2, %frag3}, [%addr64_0];", from_sm75},
      {"stmatrix-undefined-upper-lanes-exited", "upper_exited", st, "", sm90},
      {"stmatrix-undefined-upper-lanes-predicated-off", "upper_predicated_off", st, "", sm90},
      {"stmatrix-undefined-upper-lanes-other-form", "upper_other_form", st,
       "stmatrix.sync.aligned.m8n8.x4.trans.b16 [%addr64_0], {%frag0, %frag1, %frag2, %frag3};", sm90},
      {"movmatrix-undefined-upper-lanes-predicated-off", "upper_predicated_off",
       "movmatrix.sync.aligned.m8n8.trans.b16", "", from_sm75}};
  for (auto const& shape : shapes) expect_lanes_shape(loaded_suite(), shape, read_skeleton(), PtxVersion{7, 8});
  // One kernel a case: seven in all, none of the kind's other kernels shaped.
  int shaped = 0;
  for (auto const& k : loaded_suite().kernels)
    shaped += k.name.find(".upper_") != std::string::npos &&
              (k.family == "ldmatrix" || k.family == "stmatrix" || k.family == "movmatrix");
  EXPECT_EQ(shaped, 7);
}

// A case of the block without its lanes shape or its 'undefined' entry, with an unknown shape, an
// 'other_form' where the shape takes none, or an unknown variant, is refused where it stands.
TEST(MatrixMoveUndefined, ACaseOfTheBlockIsRefusedWithoutItsShapeOrTheManualsWords) {
  auto error = [](const std::string& from, const std::string& to) -> std::string {
    try {
      load_specs(spec_files("cases.yaml", from, to));
      return "(no error)";
    } catch (const SpecError& e) { return e.what(); }
  };
  const std::string movmatrix =
      "      lanes: upper-predicated-off\n      variant: movmatrix.m8n8.b16\n      undefined:\n";
  const std::string needs =
      "a matrix_move case is one of lanes 16 to 31 leaving the instruction, which the manual "
      "leaves undefined: it needs its 'lanes' and its 'undefined' entry";
  EXPECT_NE(error(movmatrix, "      variant: movmatrix.m8n8.b16\n      undefined:\n").find(needs), std::string::npos);
  const std::string entry =
      "      undefined:\n        - targets: \">= sm_75\"\n          families: [movmatrix]\n          words: \"In "
      "conditionally executed code, a movmatrix instruction should only be used if it is known that all threads in the "
      "warp evaluate the condition identically, otherwise the behavior is undefined.\"\n          source: \"PTX ISA "
      "9.0, 9.7.14.5.17 movmatrix, description\"\n          fake_device: garbage\n";
  const std::string no_words = error(entry, "");
  EXPECT_EQ(no_words.rfind("specs/cases.yaml:", 0), 0u) << no_words;
  EXPECT_NE(no_words.find(needs), std::string::npos) << no_words;
  EXPECT_NE(error(movmatrix, "      lanes: upper-skipped\n      variant: movmatrix.m8n8.b16\n      undefined:\n")
                .find("unknown lanes 'upper-skipped'; expected upper-exited, upper-predicated-off or upper-other-form"),
            std::string::npos);
  EXPECT_NE(error(movmatrix,
                  "      lanes: upper-predicated-off\n      other_form: {trans: .trans}\n      variant: "
                  "movmatrix.m8n8.b16\n      undefined:\n")
                .find("'other_form' (the qualifier values lanes 16 to 31 run) goes with lanes upper-other-form"),
            std::string::npos);
  EXPECT_NE(
      error(movmatrix, "      lanes: upper-predicated-off\n      variant: movmatrix.m8n8.b17\n      undefined:\n")
          .find("case 'movmatrix-undefined-upper-lanes-predicated-off' names unknown variant 'movmatrix.m8n8.b17'"),
      std::string::npos);
}
