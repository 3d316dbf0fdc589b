#include "kinds/mma/mma_sparse.hpp"

#include <algorithm>
#include <iterator>

namespace ptxcts {

MetadataPlace metadata_place(const MmaSparseInfo& s, int row, int chunk, int selector) {
  if (s.one_row)
    return {.lane = 4 * (row % 8) + selector * s.threads + row / 8 + 2 * (chunk / 8), .bit = 4 * (chunk % 8)};
  return {.lane = 4 * (row % 8) + selector * s.threads + chunk / 4, .bit = 16 * (row / 8) + 4 * (chunk % 4)};
}

std::vector<int> kept_columns(int chunk, unsigned field) {
  const int i0 = static_cast<int>(field & 3u), i1 = static_cast<int>((field >> 2) & 3u);
  if (chunk == 2) return field == 0b0100u ? std::vector<int>{0} : field == 0b1110u ? std::vector<int>{1} : std::vector<int>{};
  if (i0 == i1) return {};
  if (chunk == 4) return {i0, i1};
  return {2 * i0, 2 * i0 + 1, 2 * i1, 2 * i1 + 1};
}

std::vector<unsigned> meaningful_fields(int chunk) {
  if (chunk == 2) return {0b0100u, 0b1110u};
  return {0b0100u, 0b1000u, 0b1001u, 0b1100u, 0b1101u, 0b1110u};
}

MatrixValues sparse_dense_a(const MmaInfo& x, const MatrixValues& nonzero, const std::uint32_t* warp, int stride) {
  const int chunk = x.sparse.chunk, per_chunk = chunk / 2;
  MatrixValues a{.rows = nonzero.rows,
                 .cols = nonzero.cols * 2,
                 .format = nonzero.format,
                 .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(nonzero.rows * nonzero.cols * 2), 0)};
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < a.cols / chunk; ++c) {
      const MetadataPlace p = metadata_place(x.sparse, r, c, x.sparse.selector);
      const unsigned field = (warp[p.lane * stride + x.sparse.e_word] >> p.bit) & 0xFu;
      const std::vector<int> cols = kept_columns(chunk, field);
      for (std::size_t j = 0; j < cols.size(); ++j)
        a.at(r, c * chunk + cols[j]) = nonzero.at(r, c * per_chunk + static_cast<int>(j));
    }
  return a;
}

void fill_sparse_metadata(const MmaInfo& x, std::mt19937_64& rng, std::uint32_t* warp, int stride) {
  const std::vector<unsigned> fields = meaningful_fields(x.sparse.chunk);
  for (int lane = 0; lane < kWarpLanes; ++lane) warp[lane * stride + x.sparse.e_word] = 0;
  for (int r = 0; r < x.m; ++r)
    for (int c = 0; c < x.k / x.sparse.chunk; ++c) {
      const unsigned field = fields[rng() % fields.size()];
      for (int s = 0; s < 4 / x.sparse.threads; ++s) {
        unsigned put = field;
        while (s != x.sparse.selector && put == field) put = fields[rng() % fields.size()];
        const MetadataPlace p = metadata_place(x.sparse, r, c, s);
        warp[p.lane * stride + x.sparse.e_word] |= put << p.bit;
      }
    }
}

void write_sparse_metadata(const MmaInfo& x, const std::vector<unsigned>& fields, std::uint32_t* warp, int stride) {
  const std::vector<unsigned> all = meaningful_fields(x.sparse.chunk);
  const int selectors = 4 / x.sparse.threads;
  for (int lane = 0; lane < kWarpLanes; ++lane) warp[lane * stride + x.sparse.e_word] = 0;
  for (int r = 0; r < x.m; ++r)
    for (int c = 0; c < x.k / x.sparse.chunk; ++c) {
      const unsigned field = fields.at(static_cast<std::size_t>(c));
      std::vector<unsigned> others;  // both indices elsewhere: every value of the chunk moves
      std::copy_if(all.begin(), all.end(), std::back_inserter(others),
                   [&](unsigned f) { return (f & 3u) != (field & 3u) && (f >> 2) != (field >> 2); });
      for (int s = 0; s < selectors; ++s) {
        const int offset = (s - x.sparse.selector + selectors) % selectors;
        const unsigned put = offset == 0 ? field : others[static_cast<std::size_t>(offset - 1) % others.size()];
        const MetadataPlace p = metadata_place(x.sparse, r, c, s);
        warp[p.lane * stride + x.sparse.e_word] |= put << p.bit;
      }
    }
}

void unsort_sparse_metadata(const MmaInfo& x, std::uint32_t* warp, int stride) {
  for (int r = 0; r < x.m; ++r)
    for (int c = 0; c < x.k / x.sparse.chunk; ++c) {
      const MetadataPlace p = metadata_place(x.sparse, r, c, x.sparse.selector);
      std::uint32_t& e = warp[p.lane * stride + x.sparse.e_word];
      const unsigned field = (e >> p.bit) & 0xFu, swapped = ((field & 3u) << 2) | (field >> 2);
      e = (e & ~(0xFu << p.bit)) | (swapped << p.bit);
    }
}

}  // namespace ptxcts
