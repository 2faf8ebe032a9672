//===- Interpolation.h - sampling taps of Resize and GridSample -*- C++ -*-===//
//
// Where a sample at a fractional coordinate reads, and with what weights:
// linear and cubic (Keys) taps along one dimension, shared by Resize and
// the sampling ops (GridSample, RoiAlign).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSOR_INTERPOLATION_H
#define INFER_PASSES_LOWERING_TENSOR_INTERPOLATION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace infer::lowering {

/// `f` (f32) as an index clamped to [0, size - 1]; `size` is an index
/// value (the axis's length, known at compile or at run time).
mlir::Value clampedIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value f,
                         mlir::Value size);

/// The two (index, weight) neighbours of source coordinate `c` on an axis
/// of `size` elements.
llvm::SmallVector<std::pair<mlir::Value, mlir::Value>>
linearTaps(mlir::OpBuilder &b, mlir::Location l, mlir::Value c,
           mlir::Value size);

/// The weights of Keys' cubic kernel (coefficient `a`) for the four pixels
/// at distances r + 1, r, 1 - r and 2 - r from a point.
llvm::SmallVector<mlir::Value> keysWeights(mlir::OpBuilder &b, mlir::Location l,
                                           mlir::Value r, double a);

/// The four (index, weight) neighbours of source coordinate `c` for cubic
/// interpolation with coefficient `a` (Keys' kernel), as ONNX defines them;
/// out-of-range neighbours repeat the edge pixel, or with `excludeOutside`
/// get weight 0 and the others are renormalized.
llvm::SmallVector<std::pair<mlir::Value, mlir::Value>>
cubicTaps(mlir::OpBuilder &b, mlir::Location l, mlir::Value c, mlir::Value size,
          double a, bool excludeOutside);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSOR_INTERPOLATION_H
