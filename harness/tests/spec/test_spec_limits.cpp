// Issue 30: where a user's spec file multiplies work, the product is refused where the file makes
// it, before anything is expanded (a variant of 10^6 forms passed check-specs in 63 s and 596 MB).
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <chrono>

#include "spec/spec_error.hpp"
#include "spec/spec_limits.hpp"
#include "spec/spec_loader.hpp"
#include "support/spec_fixture.hpp"

using namespace ptxcts;
using namespace ptxcts::test;

namespace {

std::string limits_load_error(const std::vector<SpecFile>& files) {
  try {
    load_specs(files);
  } catch (const SpecError& e) { return e.what(); }
  return "(no error)";
}

// A qualifier map of `axes` axes, each of `values` values.
std::string qualifiers(int axes, int values) {
  std::string out = "qualifiers: {";
  for (int a = 0; a < axes; ++a) {
    out += fmt::format("{}q{}: [", a ? ", " : "", a);
    for (int v = 0; v < values; ++v) out += fmt::format("{}{{text: .q{}v{}}}", v ? ", " : "", a, v);
    out += "]";
  }
  return out + "}";
}

// `n` more cases, copies of the first under other names.
std::string more_cases(int n) {
  std::string out;
  for (int k = 0; k < n; ++k)
    out += fmt::format("  - name: extra-{}\n    description: another\n    data: unique\n    rows: contiguous\n\n", k);
  return out + "  - name: unique-contiguous\n";
}

}  // namespace

TEST(SpecLimits, AVariantOfAMillionFormsIsRefusedAtItsQualifiersAtOnce) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string err = limits_load_error(spec_files("movmatrix.yaml", "qualifiers: {}", qualifiers(3, 100)));
  EXPECT_EQ(err.rfind("specs/movmatrix.yaml:14:", 0), 0u) << err;
  EXPECT_NE(err.find("variant 'movmatrix.m8n8.b16' spells 1000000 forms (100 .q0 x 100 .q1 x 100 .q2), over the "
                     "limit of 20000; expected it split into variants as the document splits its syntax"),
            std::string::npos)
      << err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(SpecLimits, AProductPast2To64IsNotWrappedBelowTheLimit) {
  const std::string err = limits_load_error(spec_files("movmatrix.yaml", "qualifiers: {}", qualifiers(70, 2)));
  EXPECT_NE(err.find("spells more than 2^64 forms"), std::string::npos) << err;
  EXPECT_EQ(saturating_product({std::size_t{1} << 40, std::size_t{1} << 40}), SIZE_MAX);
}

// movmatrix's variant with two axes of 140 values, 19,600 forms, under the limit of one variant.
static std::vector<SpecFile> movmatrix_of_19600_forms() {
  std::vector<SpecFile> files = spec_files("movmatrix.yaml", "qualifiers: {}", qualifiers(2, 140));
  for (auto& f : files)
    if (f.path == "specs/movmatrix.yaml") f.text.replace(f.text.find(".b16 {dst}"), 4, ".b16{q0}{q1}");
  return files;
}

TEST(SpecLimits, FormsTimesCasesAreRefusedAtTheVariantThatPassesTheLimit) {
  std::vector<SpecFile> files = movmatrix_of_19600_forms();
  for (auto& f : files)
    if (f.path == "specs/cases.yaml") f.text.replace(f.text.find("  - name: unique-contiguous\n"), 28, more_cases(40));
  const std::string err = limits_load_error(files);
  EXPECT_EQ(err.rfind("specs/movmatrix.yaml:14:", 0), 0u) << err;
  EXPECT_NE(err.find("with variant 'movmatrix.m8n8.b16' (19600 forms) the specs hold "), std::string::npos) << err;
  // 61 cases (41 before issue 42's third round; +4 sparse numbers cases, +16 undefined lanes cases) and the 40 more
  EXPECT_NE(err.find(" x 101 cases (cases.yaml) = "), std::string::npos) << err;
  EXPECT_NE(err.find("kernel-case pairs, over the limit of 1000000; expected fewer forms or cases"), std::string::npos)
      << err;
}

// Without the wmma block's cases (21; wmma.yaml, whose claims name them, is read after movmatrix.yaml):
// the 57 cases of the specs would hold 20,338 forms x 57 = 1,159,266 kernel-case pairs, past their
// own limit first; 36 keep them under it (732,168), so that the targets' limit is the one passed.
TEST(SpecLimits, FormsTimesTargetsAreRefusedAsTheCatalogsAssemblies) {
  std::vector<SpecFile> files = movmatrix_of_19600_forms();
  for (auto& f : files)
    if (f.path == "specs/cases.yaml") {
      const std::size_t wmma = f.text.find("\nwmma:\n"), mma = f.text.find("\nmma:\n");
      f.text.erase(wmma, mma - wmma);
    }
  const std::string err = limits_load_error(files);
  EXPECT_EQ(err.rfind("specs/movmatrix.yaml:14:", 0), 0u) << err;
  EXPECT_NE(err.find(" x 28 targets (targets.yaml) = "), std::string::npos) << err;
  EXPECT_NE(err.find("catalog assemblies, over the limit of 500000; expected fewer forms or targets"),
            std::string::npos)
      << err;
}
