//===- ConvChecks.h - operand checks shared by the convolutions -*- C++ -*-===//
//
// Conv, ConvInteger and QLinearConv take the same input and weight layout
// and window attributes; the lowering indexes with them unchecked.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_CONVCHECKS_H
#define INFER_DIALECTS_GRAPH_IR_CONVCHECKS_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace infer::graph {

/// Input N x C x D1... (rank >= 3), weight M x C/group x k1... of the same
/// rank, channels that match the group, and window attributes with one value
/// per spatial dim. Emits the error on `op`.
llvm::LogicalResult
verifyConvOperands(mlir::Operation *op, mlir::Value x, mlir::Value w,
                   int64_t group, std::optional<llvm::ArrayRef<int64_t>> kernel,
                   std::optional<llvm::ArrayRef<int64_t>> strides,
                   std::optional<llvm::ArrayRef<int64_t>> dilations,
                   std::optional<llvm::ArrayRef<int64_t>> pads);

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_IR_CONVCHECKS_H
