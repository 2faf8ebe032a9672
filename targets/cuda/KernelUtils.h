//===- KernelUtils.h - loop helpers shared by the kernel forms --*- C++ -*-===//
//
// Small pieces the CUDA passes that shape kernels (one thread per point,
// one warp per point, shared-memory tiled contractions) all need: constant
// trip counts, flattening a loop nest, splitting a flat index, and the GPU
// mapping attribute.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CUDA_KERNELUTILS_H
#define INFER_TARGETS_CUDA_KERNELUTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace infer::cuda {

/// Iterations of a loop dimension with constant bounds and a positive
/// step; nullopt when any is not a constant.
std::optional<int64_t> tripCount(mlir::Value lb, mlir::Value ub,
                                 mlir::Value step);

/// Points of `loop` (the product of its dimensions' trip counts); nullopt
/// when a bound is not a constant.
std::optional<int64_t> pointCount(mlir::scf::ParallelOp loop);

/// `loop` with its dimensions collapsed into one (row-major), or `loop`
/// itself when it has one; the loop is rebuilt, and the new one returned.
mlir::scf::ParallelOp collapseToOneDim(mlir::RewriterBase &rewriter,
                                       mlir::scf::ParallelOp loop);

/// Splits `flat`, a row-major index over `sizes` (outermost first) smaller
/// than their product, into one index per size: remainders and quotients
/// from the innermost out, the outermost taking what is left.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b,
                                           mlir::Location loc, mlir::Value flat,
                                           llvm::ArrayRef<int64_t> sizes);

/// Marks the dimensions of `loop`, outermost first, with `processors`.
mlir::LogicalResult mapLoop(mlir::scf::ParallelOp loop,
                            llvm::ArrayRef<mlir::gpu::Processor> processors);

} // namespace infer::cuda

#endif // INFER_TARGETS_CUDA_KERNELUTILS_H
