#include "kinds/mma/mma_semantics.hpp"

#include "kinds/mma/mma_sparse.hpp"

namespace ptxcts {

std::vector<MatrixValues> mma_matrices(const MmaInfo& x, const MmaOperandInfo& o, const std::uint32_t* warp,
                                       int stride) {
  std::vector<MatrixValues> out(
      static_cast<std::size_t>(x.computations),
      MatrixValues{.rows = o.rows,
                   .cols = o.cols,
                   .format = o.format,
                   .bits = std::vector<std::uint64_t>(static_cast<std::size_t>(o.rows * o.cols))});
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < o.elements(); ++e) {
      const ElementPos& p = o.of(lane, e);
      out[static_cast<std::size_t>(p.matrix)].at(p.row, p.col) = o.get(warp + lane * stride, e);
    }
  return out;
}

void mma_place(const MmaOperandInfo& o, const std::vector<MatrixValues>& m, std::uint32_t* warp, int stride) {
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < o.elements(); ++e) {
      const ElementPos& p = o.of(lane, e);
      o.set(warp + lane * stride, e, m[static_cast<std::size_t>(p.matrix)].at(p.row, p.col));
    }
}

std::vector<MatrixValues> mma_a_matrices(const MmaInfo& x, const std::uint32_t* warp, int stride) {
  std::vector<MatrixValues> a = mma_matrices(x, x.a, warp, stride);
  if (x.sparse.chunk)
    for (auto& m : a) m = sparse_dense_a(x, m, warp, stride);
  return a;
}

void mma_execute(const MmaInfo& x, std::uint32_t* warp, int stride) {
  const auto a = mma_a_matrices(x, warp, stride), b = mma_matrices(x, x.b, warp, stride),
             c = mma_matrices(x, x.c, warp, stride);
  std::vector<MatrixValues> d;
  for (std::size_t g = 0; g < a.size(); ++g) d.push_back(multiply_accumulate(x.rule, a[g], b[g], c[g]));
  // d's words are whole registers: what the instruction writes replaces all of them (packed
  // elements and the padding of containers alike), so start from zero
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int w = 0; w < x.d.words(); ++w) warp[lane * stride + x.d.first_word + w] = 0;
  mma_place(x.d, d, warp, stride);
}

LaunchState mma_expected(const MmaInfo& x, const LaunchInput& in) {
  LaunchState out = in.state;
  for (int w = 0; w < in.shape.warps; ++w)
    mma_execute(x, out.regs.data() + static_cast<std::size_t>(w * kWarpLanes * in.shape.regs), in.shape.regs);
  return out;
}

}  // namespace ptxcts
