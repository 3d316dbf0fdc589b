// What one wmma instance does, resolved from its variant's 'wmma' block and the qualifiers chosen:
// the numbers the emitter, the case data and the reference model work with.
#pragma once

#include <string>

#include "kinds/wmma/wmma_spec.hpp"
#include "spec/element_format.hpp"
#include "spec/instance.hpp"

namespace ptxcts {

// A matrix as wmma.load / wmma.store see it in memory (Matrix Storage for WMMA).
struct WmmaMatrixInfo {
  std::string matrix;  // a, b, c, d
  int rows = 0, cols = 0;
  const ElementFormat* format = nullptr;
  bool col_major = false;
  bool stride_operand = false;  // the instance writes the optional stride
  int registers = 0;            // per thread, of register_bits each
  int register_bits = 32;

  // The leading dimension's length: "the stride is K for a row-major layout and M for a
  // column-major layout" of an MxK matrix.
  int default_stride() const { return col_major ? rows : cols; }
  int leading_count() const { return col_major ? cols : rows; }  // rows (row-major) or columns
  // "The starting address of each instance of the leading dimension must be aligned with the size
  // of the corresponding fragment in bytes."
  int alignment() const { return registers * register_bits / 8; }
  // Bit offset of element (r, c) from the matrix's start, for a stride in elements.
  long long bit_offset(int r, int c, long long stride) const {
    return (col_major ? c * stride + r : r * stride + c) * static_cast<long long>(format->bits);
  }
};

struct WmmaOperandInfo {
  const ElementFormat* format = nullptr;
  bool col_major = false;
  int registers = 0, register_bits = 32;
};

struct WmmaMmaInfo {
  int m = 0, n = 0, k = 0;
  WmmaOperandInfo a, b, c, d;
  bool satfinite = false;
  std::string rounding = "rn";       // rn, rz, rm, rp
  std::string product = "multiply";  // multiply, xor, and
};

WmmaMatrixInfo wmma_matrix_info(const Instance& inst);  // wmma.load / wmma.store
WmmaMmaInfo wmma_mma_info(const Instance& inst);        // wmma.mma

}  // namespace ptxcts
