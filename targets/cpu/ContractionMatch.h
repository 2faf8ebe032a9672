//===- ContractionMatch.h - contractions the CPU kernels take ---*- C++ -*-===//
//
// The shape of a contraction on buffers that infer-cpu-contraction-kernels
// rewrites: C[batch.., m, N] += A[batch.., m, K] * B(...), where K is one
// or more reduction dims (the trailing dims of A, contiguous), N one or
// more parallel dims (the trailing dims of C, contiguous, not in A) and m
// the one dim of A and C that B does not use. Batch dims, and a single N
// dim when B is read as rows, may have sizes known only at run time.
// B is read either as rows
// (its innermost dim is the one N dim, unit-stride) or, for any B whose
// indices are linear in the loop dims (an implicit GEMM: a convolution's
// input through its window map), by gathering at offsets that split into
// a batch part, a K part and an N part.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_CONTRACTIONMATCH_H
#define INFER_TARGETS_CPU_CONTRACTIONMATCH_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <algorithm>
#include <optional>

namespace infer::cpu {

/// MR: the rows of C one register tile holds, for vectors of `vectorBits`
/// (2 * MR accumulators, a row of B and a broadcast fit the register file:
/// 16 registers on AVX2, 32 on AVX-512).
inline int64_t tileRowsFor(unsigned vectorBits) {
  return vectorBits >= 512 ? 8 : 6;
}

/// Lanes of a vector of `vectorBits` (f32), at least 4.
inline int64_t lanesFor(unsigned vectorBits) {
  return std::max<int64_t>(vectorBits / 32, 4);
}

/// Transposed tiles (TransposedTiles.cpp): 2 vectors of C's rows by this
/// many columns of C, each column a broadcast of B (2 * columns
/// accumulators, two vectors of A and a broadcast: 31 of 32 registers on
/// AVX-512, 15 of 16 on AVX2).
inline int64_t transposedColumnsFor(unsigned vectorBits) {
  return vectorBits >= 512 ? 14 : 6;
}
inline int64_t transposedRowsFor(unsigned vectorBits) {
  return 2 * lanesFor(vectorBits);
}

/// Set by infer-cpu-pack-weights on a contraction whose constant A it
/// packed: {global = @packed ([ceil(M / MR)][K][MR]), operand = A's index,
/// rows = MR}.
inline constexpr llvm::StringLiteral kPackedLhsAttr = "infer.packed_lhs";

/// Set by infer-cpu-pack-weights on a contraction whose constant B (K x N,
/// rows of N) it packed into the usual tiles' panels: {global = @panels
/// ([ceil(N / NR)][K][NR], columns past N zero), operand = B's index,
/// width = NR}.
inline constexpr llvm::StringLiteral kPackedRhsAttr = "infer.packed_rhs";

/// Whether the usual tiles of `c` copy each panel of B (a k-block of NR
/// columns) before the row tiles use it: rows of B are only worth copying
/// when several tiles reuse them. Rows that load as whole vectors (`whole`:
/// B's own rows, or a window's output rows of whole vectors) are read in
/// place by up to 4 tiles, where the copy cost more than the reads it
/// saves (PP-OCRv4 det's 96 -> 24 convolutions over 160x160: 3 tiles, a
/// third of their time in the pack; mobilenet_v2's 192 -> 32 projections
/// over 28x28, 4 tiles: 0.076 -> 0.057 ms each in place). At 8 tiles
/// (384 -> 64) in place gains nothing.
inline bool packsPanels(int64_t m, int64_t rows, bool whole) {
  constexpr int64_t kMaxUnpackedTiles = 4;
  return m > (whole ? kMaxUnpackedTiles * rows : rows);
}

/// Vectors of B's columns in a panel of the usual tiles: two; when C has
/// fewer rows than a tile (and B is not gathered), wider panels keep the
/// accumulator count, up to 16 vectors: a matrix-vector product streams
/// whole rows of B. When B outgrows L2 (`rhsBytes`, 0 if unknown), at most
/// kMaxStreamedPanelBytes of a row: its rows then come from memory, and
/// the loads of a wide step reach the caches out of order (the scheduler
/// interleaves unrolled steps), which the hardware prefetchers fail to
/// follow (mobilenet_v2's 1280 x 1000 classifier from memory: 0.48 ms at
/// 16 vectors, 0.33 ms at 4, on Zen 4). From L2 the wide panels keep more
/// FMAs in flight (a recurrent layer's weights, read at every step).
inline constexpr int64_t kStreamedRhsBytes = 1024 * 1024;
/// Whether a product of `m` rows (fewer than a tile's `rows`) streams its
/// B of `rhsBytes` from memory.
inline bool streamsRhs(int64_t m, int64_t rows, int64_t rhsBytes) {
  return m < rows && rhsBytes > kStreamedRhsBytes;
}
inline int64_t panelVectors(int64_t m, int64_t rows, int64_t lanes, bool gather,
                            int64_t n, int64_t rhsBytes) {
  constexpr int64_t kMaxVectors = 16;
  constexpr int64_t kMaxStreamedPanelBytes = 256;
  if (m >= rows || gather) {
    return 2;
  }
  int64_t vectors = std::min<int64_t>(2 * rows / m, kMaxVectors);
  if (streamsRhs(m, rows, rhsBytes)) {
    vectors = std::min<int64_t>(
        vectors, std::max<int64_t>(2, kMaxStreamedPanelBytes / (lanes * 4)));
  }
  // Threads take whole panels: an odd count of a few wide ones splits
  // unevenly (a GRU's 768 columns in 3 panels of 16 AVX-512 vectors ran
  // 2:1 on two threads), so narrower ones when N then makes an even count.
  int64_t panels = n > 0 ? (n + vectors * lanes - 1) / (vectors * lanes) : 0;
  if (panels > 1 && panels % 2 == 1) {
    for (int64_t v = vectors - 1; 2 * v > vectors; --v) {
      if (n % (v * lanes) == 0 && n / (v * lanes) % 2 == 0) {
        return v;
      }
    }
  }
  return vectors;
}

struct Contraction {
  mlir::linalg::LinalgOp op;
  /// Static loop ranges (batch dims may be dynamic, and a single N dim of
  /// a B read as rows, whose `n` is then kDynamic).
  llvm::SmallVector<int64_t> ranges;
  /// M: the dims of A and C that B does not use, consecutive in both
  /// (several only when they collapse into one, e.g. [seq, batch] rows).
  llvm::SmallVector<unsigned> batch, mDims, kDims, nDims;
  /// Which input is A (projected dims) and which B (the product commutes:
  /// a depthwise convolution has its input first).
  unsigned lhs = 0, rhs = 1;
  int64_t m = 0, k = 0, n = 0;
  /// B gathered through `coefficients` (elements per unit of each loop
  /// dim) rather than read as rows.
  bool gather = false;
  llvm::SmallVector<int64_t> coefficients;
  /// f32, or i32 for a contraction over four packed 8-bit lanes
  /// (passes/lowering/ByteDot.h), whose lanes in A and in B are each
  /// zero- or sign-extended.
  mlir::Type element;
  struct ByteLanes {
    bool aUnsigned = false, bUnsigned = false;
  };
  std::optional<ByteLanes> byteDot;
  /// Set for a contraction over two packed bfloat16 lanes in i32
  /// (passes/lowering/PairDot.h): C's element type, f32.
  mlir::Type accElement;

  /// The loop ids of the flattened K, N and M dims, after the real ones
  /// (a single M dim keeps its own).
  unsigned kId() const { return ranges.size(); }
  unsigned nId() const { return ranges.size() + 1; }
  unsigned mId() const {
    return mDims.size() == 1 ? mDims.front() : ranges.size() + 2;
  }
  /// (No M dims: one row, e.g. a depthwise convolution per channel.)
  unsigned numIds() const { return ranges.size() + 3; }
  /// Bytes of one K x N matrix of B; 0 when a size is dynamic.
  int64_t rhsBytes() const {
    if (mlir::ShapedType::isDynamic(k) || mlir::ShapedType::isDynamic(n)) {
      return 0;
    }
    return k * n * element.getIntOrFloatBitWidth() / 8;
  }
};

/// Elements per unit of each loop dim for `operand` of `op`: its index
/// must be linear in the loop dims (no constant term), its memref of static
/// shape and strides; nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>>
linearCoefficients(mlir::linalg::LinalgOp op, mlir::OpOperand *operand);

/// The contraction `op` is, or nullopt when the kernels do not take it.
std::optional<Contraction> matchContraction(mlir::linalg::LinalgOp op);

/// Whether the kernels compute `c` with vectors along M, its rows, rather
/// than N (TransposedTiles.cpp): when C has few columns that fill vectors
/// poorly (a 7x7 output plane: 49 of 64 lanes) and many rows (output
/// channels) that fill them well. Needs f32, static sizes, a constant A
/// (infer-cpu-pack-weights packs it for these tiles), B at offsets linear
/// in the loop dims, a fill of C right before, and a reduction long enough
/// to pay for storing the tile transposed. Both infer-cpu-pack-weights and
/// the kernels ask, so they agree.
bool transposedTiles(const Contraction &c, unsigned vectorBits);

/// The columns of C a transposed kernel unrolls as panels at a time: all
/// of them when they make at most kMaxTransposedPanels panels, else whole
/// rows of C's N dims but the outermost (so a column's offset in a chunk
/// is the chunk's plus a constant); 0 when such a row is too long.
inline constexpr int64_t kMaxTransposedPanels = 16;
int64_t transposedChunkColumns(const Contraction &c, unsigned vectorBits);

/// For a one-row contraction over a short window read through a window
/// map (a depthwise convolution per channel: M = 1, K = 9 to 49, N = the output
/// plane), makes every N dim but the innermost a batch loop, so the
/// kernel computes one output row at a time: each vector of B's rows then
/// lies in one input row (one load, no runs to plan per vector) and the
/// plan is the same for every row. Output rows shorter than `minRow`
/// elements stay flattened (a vector per row would leave most lanes
/// idle). Returns whether it did.
bool rowsAsBatch(Contraction &c, int64_t maxK, int64_t minRow);

/// The contraction infer-cpu-contraction-kernels makes a kernel of for
/// `op`, with vectors of `vectorBits`: `matchContraction`, then one output
/// row per panel (`rowsAsBatch`, windows of up to `maxRowTaps` taps) for
/// rows of a quarter vector or more (7 columns in 16 lanes ran 5% faster
/// one row at a time than as runs over the plane).
std::optional<Contraction> kernelContraction(mlir::linalg::LinalgOp op,
                                             unsigned vectorBits,
                                             int64_t maxRowTaps);

/// The batch loop level a parallel kernel of `c` runs in parallel: the
/// first batch dim that is not 1, when it has `minIterations` iterations
/// or more (a depthwise convolution's channels) and every batch dim
/// before it is 1; nullopt otherwise.
std::optional<size_t> parallelBatchLevelOf(const Contraction &c,
                                           int64_t minIterations);

/// Rows of A this many bytes apart map to the same L1 sets.
inline constexpr int64_t kAliasingRowBytes = 4096;

/// Bytes between consecutive rows of A (its innermost M dim) when K is its
/// innermost dim at unit stride and its strides are static; 0 otherwise.
int64_t lhsRowBytes(const Contraction &c);

/// The k-block of `c`'s kernel (tiles of `rows` rows, a target with
/// `l2Bytes` of L2 per core): `kBlock` rows, or all of K when C outgrows
/// L2 and k-blocks would not keep the operand every sweep re-reads in L2
/// either, or when B streams from memory through a single tile (see
/// ContractionMatch.cpp).
int64_t reductionBlock(const Contraction &c, int64_t kBlock, int64_t rows,
                       int64_t l2Bytes);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CONTRACTIONMATCH_H
