//===- Precision.h - the mark of layers computed in bfloat16 ----*- C++ -*-===//
//
// Set by infer-graph-bf16 (infer-compile --precision=bf16), read by the
// lowering of Conv, MatMul and Gemm.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_GRAPH_PRECISION_H
#define INFER_PASSES_GRAPH_PRECISION_H

#include "mlir/IR/Operation.h"

namespace infer::graph {

/// `infer.precision = "bf16"`: compute the op over bfloat16 inputs with f32
/// sums.
inline constexpr llvm::StringLiteral kPrecisionMark = "infer.precision";

inline bool markedBf16(mlir::Operation *op) {
  auto mark = op->getAttrOfType<mlir::StringAttr>(kPrecisionMark);
  return mark && mark.getValue() == "bf16";
}

} // namespace infer::graph

#endif // INFER_PASSES_GRAPH_PRECISION_H
