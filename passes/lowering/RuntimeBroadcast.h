//===- RuntimeBroadcast.h - broadcasting decided at run time ---*- C++ -*-===//
//
// In the generic variant an elementwise op may see two dynamic dims at the
// same position: equal in most runs (a residual Add over a dynamic batch),
// but ONNX also lets one of them be 1 at run time and broadcast (a rotary
// table gathered for one position row, multiplied into a batch of
// queries). The lowering cannot tell which from the types, so each such
// operand is versioned: when its dims equal the result's (the common case)
// it is used as is; otherwise a copy broadcast to the result's sizes
// replaces it. Equal dims that trace to the same value fold the version
// away after canonicalization.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_RUNTIMEBROADCAST_H
#define INFER_PASSES_LOWERING_RUNTIMEBROADCAST_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace infer::lowering {

/// The result sizes of `inputs` broadcast numpy-style to `resultType`, the
/// dynamic ones computed at run time (a size of 1 yields to any other), and
/// `inputs` with each operand whose dynamic dims may broadcast at run time
/// replaced by an `scf.if` yielding it or its broadcast copy. With
/// `checked` (the op being lowered, when run-time checks are on) operands
/// whose sizes neither match nor broadcast fail a check naming the op;
/// without, coordinates are clamped so nothing is read out of bounds.
struct RuntimeBroadcast {
  llvm::SmallVector<mlir::OpFoldResult> sizes;
  llvm::SmallVector<mlir::Value> inputs;
  /// Per input, per dim: whether that dim was versioned (it may broadcast
  /// at run time; inputs[i] has the result's size there).
  llvm::SmallVector<llvm::SmallVector<bool>> versioned;
};

RuntimeBroadcast broadcastAtRunTime(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::RankedTensorType resultType,
                                    mlir::ValueRange inputs,
                                    mlir::Operation *checked);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_RUNTIMEBROADCAST_H
