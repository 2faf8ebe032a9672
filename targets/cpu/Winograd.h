//===- Winograd.h - the F(2x2, 3x3) transforms -----------------*- C++ -*-===//
//
// Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2015): a 2x2 block of a
// 3x3 convolution's outputs from a 4x4 tile of its input d and the filter
// g is
//
//   Y = A^T [ (G g G^T) . (B^T d B) ] A        (. elementwise, 16 terms)
//
// so that, summed over input channels, each of the 16 terms is a matmul
// over channels (filters x channels times channels x tiles): 16
// multiplications per 4 outputs where the direct form takes 36. B^T and
// A^T hold only 0 and +-1: the input and output transforms are additions.
// infer-cpu-winograd (Winograd.cpp) writes a convolution in this form on
// tensors; infer-cpu-winograd-kernels (WinogradKernels.cpp) writes its
// two transforms as vector code. Both compute them with these helpers, on
// scalars or on vectors alike.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_WINOGRAD_H
#define INFER_TARGETS_CPU_WINOGRAD_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace infer::cpu {

/// The marker infer-cpu-winograd puts on the two transform generics
/// (value "input" or "output") for infer-cpu-winograd-kernels.
inline constexpr llvm::StringLiteral kWinogradAttr = "infer.winograd";

/// Input tile side (4), output tile side (2), terms per tile (16).
inline constexpr int64_t kWinogradIn = 4, kWinogradOut = 2, kWinogradTerms = 16;

/// B^T d B of a 4x4 input tile `d` (row-major): the 16 terms in (xi, nu)
/// order, xi the row's.
llvm::SmallVector<mlir::Value>
winogradInputTransform(mlir::OpBuilder &b, mlir::Location loc,
                       llvm::ArrayRef<mlir::Value> d);

/// A^T m A of the 16 terms `m` in (xi, nu) order: the 2x2 outputs,
/// row-major.
llvm::SmallVector<mlir::Value>
winogradOutputTransform(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::ArrayRef<mlir::Value> m);

/// G g G^T of a 3x3 filter `g` (row-major): the 16 terms, (xi, nu) order.
void winogradFilterTransform(const float *g, float *u);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_WINOGRAD_H
