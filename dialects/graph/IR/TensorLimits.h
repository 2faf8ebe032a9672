//===- TensorLimits.h - the largest tensor a model may declare --*- C++ -*-===//
//
// A shape whose tensor would hold more than 2^48 bytes (256 TiB) is beyond
// any machine: it comes from a corrupt or hostile model, and sizes computed
// from it overflow. The importer refuses such declared shapes and shape
// propagation refuses such inferred ones, naming the value.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_TENSORLIMITS_H
#define INFER_DIALECTS_GRAPH_IR_TENSORLIMITS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <cstdint>

namespace infer::graph {

/// log2 of the most bytes one tensor may hold.
constexpr unsigned kMaxTensorBytesLog2 = 48;

/// Bits of one element in memory: a sub-byte integer packs, complex is two
/// parts, anything else (strings, handles) counts as a pointer.
inline uint64_t storageBits(mlir::Type element) {
  if (auto complex = llvm::dyn_cast<mlir::ComplexType>(element)) {
    return 2 * storageBits(complex.getElementType());
  }
  if (element.isIntOrFloat()) {
    return element.getIntOrFloatBitWidth();
  }
  return 64;
}

/// Whether a tensor of `shape` (dynamic dims ignored) and `element` holds
/// more than 2^kMaxTensorBytesLog2 bytes.
inline bool exceedsTensorLimit(llvm::ArrayRef<int64_t> shape,
                               mlir::Type element) {
  constexpr uint64_t kMaxBits = uint64_t(1) << (kMaxTensorBytesLog2 + 3);
  uint64_t bits = storageBits(element);
  for (int64_t dim : shape) {
    if (dim == 0) {
      return false;
    }
    if (mlir::ShapedType::isDynamic(dim)) {
      continue;
    }
    if (static_cast<uint64_t>(dim) > kMaxBits / (bits ? bits : 1)) {
      return true;
    }
    bits *= static_cast<uint64_t>(dim);
  }
  return bits > kMaxBits;
}

/// The same for a type: false for anything that is not a ranked tensor.
inline bool exceedsTensorLimit(mlir::Type type) {
  auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return ranked &&
         exceedsTensorLimit(ranked.getShape(), ranked.getElementType());
}

/// The most dims a shape operand (Reshape, Expand, ConstantOfShape) may
/// give: far beyond any model, and small enough that a type of that rank
/// costs nothing.
constexpr int64_t kMaxShapeLength = 1024;

/// Checks that `shapeOperand`, where ranked, is 1-d and no longer than
/// kMaxShapeLength; fails with an error on `op` otherwise.
inline mlir::LogicalResult verifyShapeOperand(mlir::Operation *op,
                                              mlir::Value shapeOperand) {
  auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(shapeOperand.getType());
  if (!ranked) {
    return mlir::success();
  }
  if (ranked.getRank() != 1) {
    return op->emitOpError("the shape operand must be 1-d, got rank ")
           << ranked.getRank();
  }
  if (ranked.getDimSize(0) > kMaxShapeLength) {
    return op->emitOpError("the shape operand has ")
           << ranked.getDimSize(0) << " entries; at most " << kMaxShapeLength
           << " are supported";
  }
  return mlir::success();
}

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_IR_TENSORLIMITS_H
