// The wmma reference model: the inputs of one (wmma kernel, case), and what the manual says must
// come out. Fragments' register layouts are unspecified, so the model follows matrices, not
// registers: a load yields the matrix its layout and stride select, wmma.mma computes
// D = A * B + C exactly, and a store writes the matrix where its layout and stride say. A store
// whose fragment came from outside the kernel (registers in) is checked by what it may write: each
// element of the matrix one of the fragment's values, every other byte untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/comparison.hpp"
#include "model/launch.hpp"
#include "spec/spec_model.hpp"
#include "kinds/wmma/wmma_kernel.hpp"
#include "plan/suite.hpp"
#include "kinds/wmma/wmma_info.hpp"

namespace ptxcts {

// A matrix of raw element bits, row-major: what a load yields and a store writes.
struct WmmaValues {
  int rows = 0, cols = 0;
  const ElementFormat* format = nullptr;
  std::vector<std::uint64_t> bits;
  std::uint64_t& at(int r, int c) { return bits[static_cast<std::size_t>(r * cols + c)]; }
  std::uint64_t at(int r, int c) const { return bits[static_cast<std::size_t>(r * cols + c)]; }
};

// The manual's semantics, as the model applies them (exposed for device emulators in tests).
WmmaValues wmma_load_matrix(const WmmaMatrixInfo& m, const std::vector<std::uint8_t>& mem, std::size_t base, std::uint32_t stride);
void wmma_store_matrix(const WmmaMatrixInfo& m, const WmmaValues& x, std::vector<std::uint8_t>& mem, std::size_t base, std::uint32_t stride);
WmmaValues wmma_multiply(const WmmaMmaInfo& x, const WmmaValues& a, const WmmaValues& b, const WmmaValues& c);
// First 32-bit word of each of the kernel's fragments in a thread's registers (.b32 ones, then .b64).
std::vector<int> wmma_fragment_words(const KernelPlan& k);

// Throws std::runtime_error when the case cannot be laid out (a matrix larger than its region).
LaunchInput make_wmma_input(const CaseSet& set, const CaseSpec& c, const KernelPlan& kernel);

// Compares the device's result with the model. Throws std::runtime_error if the model cannot say
// what the result must be.
Comparison check_wmma(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual, std::size_t max_lines = 16);

// For single-instruction kernels with unique data: where each element of the matrix sits in the
// fragment registers (the same in every warp), one line per lane ("lane 0: r0.lo=(0,0) r0.hi=(0,1)
// ..."; sub-word elements as r0.0, r0.1, ...); "" when it cannot be told.
std::string observe_wmma_layout(const KernelPlan& kernel, const LaunchInput& input, const LaunchState& actual);

}  // namespace ptxcts
