// Issue 42, part 4: the undefined cases of cases.yaml's wmma block whose lanes 16 to 31 leave the
// wmma.load or wmma.store (exit before it, skip it under a predicate, run the .col form on a
// divergent path): each on a kernel of its own, the single instruction's with the code around it,
// which ptxas assembles for sm_75 and sm_90 (sm_70 where the toolkit still has it).
#include <gtest/gtest.h>

#include "kinds/wmma/wmma_case_data.hpp"
#include "kinds/wmma/wmma_emitter.hpp"
#include "support/lanes_shapes.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

TEST(WmmaUndefined, LanesShapesTakeOneKernelEachWithTheExitThePredicateOrTheOtherFormAroundIt) {
  const std::string ld = "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16_stride_a64",
                    st = "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32_stride_a64";
  const std::vector<std::string> targets = {"sm_75", "sm_90"};  // CUDA 13's ptxas has no sm_70
  const LanesShapeCase shapes[] = {
      {"wmma-load-undefined-upper-lanes-exited", "upper_exited", ld, "", targets},
      {"wmma-load-undefined-upper-lanes-predicated-off", "upper_predicated_off", ld, "", targets},
      {"wmma-load-undefined-upper-lanes-other-form", "upper_other_form", ld,
       "wmma.load.a.sync.aligned.col.m16n16k16.shared.f16 {%w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7}, [%addr0], "
       "%stride0;",
       targets},
      {"wmma-store-undefined-upper-lanes-exited", "upper_exited", st, "", targets},
      {"wmma-store-undefined-upper-lanes-predicated-off", "upper_predicated_off", st, "", targets},
      {"wmma-store-undefined-upper-lanes-other-form", "upper_other_form", st,
       "wmma.store.d.sync.aligned.col.m16n16k16.shared.f32 [%addr0], {%w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7}, "
       "%stride0;",
       targets}};
  for (auto const& shape : shapes)
    expect_lanes_shape(loaded_suite(), shape, read_skeletons().at(kWmmaSkeleton), PtxVersion{7, 8});
  int shaped = 0;
  for (auto const& k : loaded_suite().kernels)
    shaped += k.family == "wmma" && k.name.find(".upper_") != std::string::npos;
  EXPECT_EQ(shaped, 6);
}

// wmma.store's stride and lanes cases take the plain single store of their one form (a kernel of
// no lanes shape), as wmma.load's do the load's, and break the one rule: the .f32 D, row-major,
// .m16n16k16, has the default stride 16 (its n; 9.7.14.4.2), which lanes 0 to 15 give but in the
// stride case (below it); lanes 16 to 31 give the next region's p (2,048 bytes on) or a wider stride.
TEST(WmmaUndefined, StoreStrideAndLanesCasesTakeTheOneSingleStoreAndBreakTheOneRule) {
  const std::string store = "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32_stride_a64";
  for (const char* name : {"wmma-store-undefined-stride-below-default", "wmma-store-undefined-lanes-differ-address",
                           "wmma-store-undefined-lanes-differ-stride"}) {
    SCOPED_TRACE(name);
    const CaseSpec* c = loaded_suite().specs.find_case(name);
    ASSERT_TRUE(c);
    std::vector<std::string> taking;
    for (auto const& k : loaded_suite().kernels)
      if (kind_of(k).takes(k, *c)) taking.push_back(k.name);
    EXPECT_EQ(taking, std::vector<std::string>{store});
    const LaunchInput in = make_wmma_input(loaded_suite().specs.cases, *c, *loaded_suite().find_kernel(store));
    const std::string n = name;
    for (int t = 0; t < in.shape.threads(); ++t) {
      const bool upper = t % 32 >= 16;
      const std::uint32_t p = in.offsets[static_cast<std::size_t>(t)],
                          p0 = in.offsets[static_cast<std::size_t>(t - t % 32)],
                          stride = in.offsets[static_cast<std::size_t>(in.shape.threads() + t)];
      EXPECT_EQ(p, p0 + (upper && n.ends_with("address") ? 2048u : 0u)) << "thread " << t;
      if (n.ends_with("below-default")) {
        EXPECT_LT(stride, 16u) << "thread " << t;
      } else if (upper && n.ends_with("stride")) {
        EXPECT_GT(stride, 16u) << "thread " << t;
      } else {
        EXPECT_EQ(stride, 16u) << "thread " << t;
      }
    }
  }
}
