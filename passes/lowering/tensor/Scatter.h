//===- Scatter.h - updates applied in order, as scatters do ----*- C++ -*-===//
//
// ScatterElements, ScatterND and MaxUnpool write updates into a copy of
// their data one at a time, in order, so later updates win (or combine
// with add/mul/max/min) exactly as ONNX specifies.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSOR_SCATTER_H
#define INFER_PASSES_LOWERING_TENSOR_SCATTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace infer::lowering {

/// `update` combined into `old` by `reduction` ("add", "mul", "max", "min";
/// anything else: `update` replaces `old`).
mlir::Value combineScatter(mlir::OpBuilder &b, mlir::Location l,
                           llvm::StringRef reduction, mlir::Value old,
                           mlir::Value update);

/// Applies every update in order: `position(b, l, k)` gives the destination
/// coordinates of update element k (flat), `value` its value.
mlir::Value
scatterLoop(mlir::OpBuilder &b, mlir::Location loc, mlir::Value data,
            int64_t count, llvm::StringRef reduction,
            llvm::function_ref<llvm::SmallVector<mlir::Value>(
                mlir::OpBuilder &, mlir::Location, mlir::Value)>
                position,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Value)>
                value);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSOR_SCATTER_H
