// mma.sp and mma.sp::ordered_metadata (9.7.14.6): the metadata operand e and the sparsity selector
// f, as the suite reads them. The manual gives in words (9.7.14.6.1 Sparse matrix storage) the
// granularity, that each 4-bit field of e holds two 2-bit indices of a chunk (the lower index in the
// lower bits where ordered), and which lanes of a group of four contribute metadata for a selector;
// which bits of which lane hold which chunk it draws only (9.7.14.6.2's metadata figures). The
// suite's reading (the hypothesis the device judges, cited in specs/mma.yaml), where `threads`
// lanes of each group contribute (4 / the selector's documented values), lane 4 * (r % 8) + f *
// threads + j being the j-th of them; row r of A, chunk c (elements c * chunk .. + chunk - 1):
//   two-rows (.f16, .bf16, .tf32; confirmed on the H200): lane j = c / 4 holds 16 bits of row
//     groupID and 16 of row groupID + 8, the field at bits 16 * (r / 8) + 4 * (c % 4) .. + 3;
//   one-row (.u8/.s8, .u4/.s4; the H200's results of the first reading, see specs/mma.yaml): lane
//     j = r / 8 + 2 * (c / 8) holds 32 bits of one row, eight consecutive chunks, the field at bits
//     4 * (c % 8) .. + 3 (a pair: row groupID, then groupID + 8; all four: rows groupID, groupID + 8
//     for chunks 0..7, then again for chunks 8..15).
// A field's indices i0 (bits 1..0) and i1 (bits 3..2) place the chunk's non-zero values, in the
// order they sit in A's operand: 2:4 at columns i0 and i1; 4:8 (pairs) at 2*i0, 2*i0+1, 2*i1,
// 2*i1+1; .tf32 1:2 at column 0 for 0b0100 and 1 for 0b1110 (its only meaningful values).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "kinds/mma/mma_info.hpp"
#include "spec/matrix_product.hpp"

namespace ptxcts {

// Where a field of the metadata sits: the lane whose e holds it, and its lowest bit.
struct MetadataPlace {
  int lane = 0, bit = 0;
};
MetadataPlace metadata_place(const MmaSparseInfo& s, int row, int chunk, int selector);

// The columns of a chunk (0 .. chunk - 1) that field `field` places the chunk's non-zero values at,
// in operand order; empty for a field the manual gives no meaning.
std::vector<int> kept_columns(int chunk, unsigned field);
// The fields the manual gives a meaning for mma.sp::ordered_metadata (sorted indices; for .tf32 its
// two values), which the suite uses for both spellings.
std::vector<unsigned> meaningful_fields(int chunk);

// A (m x k) from the operand's non-zero values (m x k/2) and the warp's metadata, read at the
// instance's selector.
MatrixValues sparse_dense_a(const MmaInfo& x, const MatrixValues& nonzero, const std::uint32_t* warp, int stride);

// Writes each lane's e: for every (row, chunk) a meaningful field at the instance's selector, and a
// different one at every other selector's place, so that a device that reads the wrong selector,
// the wrong field or the wrong half of e gets another A.
void fill_sparse_metadata(const MmaInfo& x, std::mt19937_64& rng, std::uint32_t* warp, int stride);

// Writes each lane's e from one field per chunk, every row alike (a numbers case's fields,
// kinds/mma/mma_numbers.hpp): fields[c] at the instance's selector, and at every other selector's
// place a meaningful field whose two indices both differ from fields[c]'s, so that a device that
// reads the wrong selector places every value of the chunk at another column.
void write_sparse_metadata(const MmaInfo& x, const std::vector<unsigned>& fields, std::uint32_t* warp, int stride);

// Every field at the instance's selector with its two indices swapped (i0 in bits 3..2, i1 in bits
// 1..0): indices in decreasing order, which mma.sp::ordered_metadata leaves undefined; read as plain
// mma.sp reads them (kept_columns), the chunk's first non-zero value goes to the larger index.
void unsort_sparse_metadata(const MmaInfo& x, std::uint32_t* warp, int stride);

}  // namespace ptxcts
