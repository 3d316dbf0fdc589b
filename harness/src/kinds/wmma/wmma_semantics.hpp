// The manual's wmma semantics, as the model applies them: matrices of raw element bits, reading and
// writing elements' bits in memory, what a load yields, what a store writes, what wmma.mma computes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kinds/wmma/wmma_info.hpp"
#include "spec/element_format.hpp"
#include "spec/matrix_product.hpp"

namespace ptxcts {

// A matrix of raw element bits, row-major: what a load yields and a store writes.
using WmmaValues = MatrixValues;

// An element's `width` bits at bit `bit` past byte `base` of `mem` (little-endian; throws
// std::out_of_range outside `mem`), and writing them.
std::uint64_t read_bits(const std::vector<std::uint8_t>& mem, std::size_t base, long long bit, int width);
void write_bits(std::vector<std::uint8_t>& mem, std::size_t base, long long bit, int width, std::uint64_t v);
// The bits an element of `f` occupies in a 64-bit value.
std::uint64_t element_mask(const ElementFormat& f);

// The manual's semantics, as the model applies them (exposed for device emulators in tests).
WmmaValues wmma_load_matrix(const WmmaMatrixInfo& m, const std::vector<std::uint8_t>& mem, std::size_t base,
                            std::uint32_t stride);
void wmma_store_matrix(const WmmaMatrixInfo& m, const WmmaValues& x, std::vector<std::uint8_t>& mem, std::size_t base,
                       std::uint32_t stride);
WmmaValues wmma_multiply(const WmmaMmaInfo& x, const WmmaValues& a, const WmmaValues& b, const WmmaValues& c);

}  // namespace ptxcts
