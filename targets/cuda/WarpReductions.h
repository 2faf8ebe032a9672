//===- WarpReductions.h - reduction kernels as one warp per output -*- C++
//-*-===//
//
// A kernel whose points each run a long reduction (a Gemm at batch 1, a
// softmax or LayerNorm row, a global pooling) has few points and long
// sequential loops: one thread per point leaves most of a GPU idle. These
// helpers give each point a warp instead: its 32 lanes stride over the
// reduction, combine their partial values with `gpu.subgroup_reduce`
// (shuffles), and lane 0 folds the result into the output.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CUDA_WARPREDUCTIONS_H
#define INFER_TARGETS_CUDA_WARPREDUCTIONS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace infer::cuda {

struct WarpReductionOptions {
  /// Threads per block; a block holds blockSize / 32 warps (at least one).
  int64_t blockSize = 256;
  /// Kernels with more points than this keep one thread per point: they
  /// already fill the GPU.
  int64_t maxPoints = 32768;
  /// Reductions shorter than this stay sequential in one thread.
  int64_t minLength = 32;
};

/// Maps `loop` (a top-level scf.parallel of constant bounds) as one warp per
/// point when its body is a reduction into one output element (a perfect
/// nest of scf.for whose innermost body loads, combines with one of
/// add/mul/min/max/and/or and stores back one f32 or i32 element) and the
/// sizes fit `options`. The new loops carry their block_x and
/// thread_y/thread_x mapping. Returns false, leaving `loop` untouched, when
/// it does not match. `loop` is updated to the loop that replaces it (a
/// multi-dimensional loop is collapsed first, and stays collapsed even if
/// the rewrite then gives up).
bool mapAsWarpReduction(mlir::RewriterBase &rewriter,
                        mlir::scf::ParallelOp &loop,
                        const WarpReductionOptions &options);

} // namespace infer::cuda

#endif // INFER_TARGETS_CUDA_WARPREDUCTIONS_H
