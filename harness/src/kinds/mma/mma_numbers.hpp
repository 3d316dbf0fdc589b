// Numbers, not just places: mma cases whose inputs are chosen so that the manual's sentences on
// arithmetic ("Precision and rounding", 9.7.14.5.14) decide the exact result. Each question (a case's
// `numbers:` field in cases.yaml) lays out A, B and C for an instance and says, for every element of
// D, what it may be: the exact bits any conforming device must give (where the words pin it), the
// members of a range the words allow (which one the GPU gave is an observation), or anything (the
// words leave it unspecified: what the GPU gave is recorded, never judged). The expected values come
// from exact arithmetic of their own (integers, long double, std::fma under fesetround), not from the
// reference model's D = A * B + C.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kinds/mma/mma_info.hpp"
#include "spec/matrix_product.hpp"

namespace ptxcts {

// One value an element may take, and what it says of the GPU when it is the one returned.
struct NumberMember {
  std::uint64_t bits = 0;
  std::string meaning;
};

// What one element of D may be.
struct NumberExpectation {
  enum class Judged {
    Exact,  // members[0] only: any conforming device gives these bits
    Range,  // a member, or (integers) any value in [lo, hi]: the words allow each; which is observed
    Any,    // unspecified: every value is recorded (members name the values it may be known by)
  } judged = Judged::Exact;
  std::vector<NumberMember> members;
  bool interval = false;  // Range over the integers lo..hi (members name some of them)
  std::int64_t lo = 0, hi = 0;
  int group = 0;  // which of the design's groups (NumbersDesign::groups) the element is in
};

// A question's inputs and expectations for one instance: per computation, A, B, C and D's elements
// (row-major, m x n); `groups` say in words what each group of elements is (for the observation).
// mma.sp (a `sparse-` question): `a` is the operand's compressed A (m x k/2, the non-zero values),
// `b` the dense B (k x n), and `fields` the metadata field of each chunk of A's rows (every row
// alike, kinds/mma/mma_sparse.hpp), which places the non-zero values; empty for a dense mma.
struct NumbersDesign {
  std::vector<MatrixValues> a, b, c;
  std::vector<std::vector<NumberExpectation>> d;
  std::vector<std::string> groups;
  std::vector<unsigned> fields;
};

// The questions a case may ask (cases.yaml `numbers:`): accumulation, products, subnormal, overflow,
// f64, int-overflow (dense mma); and the same arithmetic asked of mma.sp and
// mma.sp::ordered_metadata, its inputs in the compressed A (sparse-accumulation, sparse-products,
// sparse-subnormal, sparse-int-overflow: 9.7.14.6.3's "Precision and rounding").
// Inline: the case reader (mma_cases.cpp) names them, and the spec fuzzer links that reader alone.
inline const std::vector<std::string>& numbers_questions() {
  static const std::vector<std::string> all = {
      "accumulation",        "products",        "subnormal",        "overflow", "f64", "int-overflow",
      "sparse-accumulation", "sparse-products", "sparse-subnormal", "sparse-int-overflow"};
  return all;
}

// Whether the question can be asked of the instance (its types, its accumulator), and its design.
bool numbers_apply(const std::string& question, const MmaInfo& x);
// The same from the instance's types alone (no layouts: what planning asks of every kernel), and
// only for forms whose results are checked (no 'unchecked').
bool numbers_apply(const std::string& question, const Instance& inst);
NumbersDesign numbers_design(const std::string& question, const MmaInfo& x);

}  // namespace ptxcts
