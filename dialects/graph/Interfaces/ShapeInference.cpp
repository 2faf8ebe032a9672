//===- ShapeInference.cpp - trait-driven result type inference ------------===//

#include "dialects/graph/Interfaces/ShapeInference.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace infer::graph {

#include "dialects/graph/Interfaces/ShapeInference.cpp.inc"

namespace {

/// Each result keeps its element type and takes the first operand's shape.
void inferSameShape(Operation *op, SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(op->getOperand(0));
  for (Type type : op->getResultTypes()) {
    inferred.push_back(input ? withShape(type, input.getShape()) : type);
  }
}

LogicalResult inferBroadcast(Operation *op, SmallVectorImpl<Type> &inferred) {
  std::optional<SmallVector<int64_t>> shape = SmallVector<int64_t>();
  for (Value operand : op->getOperands()) {
    if (isNone(operand)) {
      continue;
    }
    auto ranked = getRanked(operand);
    if (!ranked) {
      shape.reset();
      break;
    }
    auto next = broadcastShapes(*shape, ranked.getShape());
    if (!next) {
      return op->emitOpError("operand shapes cannot be broadcast together: ")
             << op->getOperandTypes();
    }
    shape = std::move(next);
  }
  for (Type type : op->getResultTypes()) {
    inferred.push_back(shape ? withShape(type, *shape) : type);
  }
  return success();
}

LogicalResult inferReduce(Operation *op, SmallVectorImpl<Type> &inferred) {
  Type resultType = op->getResult(0).getType();
  auto data = getRanked(op->getOperand(0));
  auto keepAttr = op->getAttrOfType<IntegerAttr>("keepdims");
  auto noopAttr = op->getAttrOfType<IntegerAttr>("noop_with_empty_axes");
  bool keepDims = !keepAttr || keepAttr.getInt() != 0;
  bool noopWhenEmpty = noopAttr && noopAttr.getInt() != 0;
  if (!data) {
    inferred.push_back(resultType);
    return success();
  }
  int64_t rank = data.getRank();
  Value axesOperand = op->getOperand(1);
  // Axes are distinct: at most one per dim (a scalar is one axis).
  if (auto axesType =
          isNone(axesOperand) ? RankedTensorType() : getRanked(axesOperand)) {
    if (axesType.getRank() > 1) {
      return op->emitOpError("'axes' must be 1-d, got rank ")
             << axesType.getRank();
    }
    if (axesType.getRank() == 1 && !axesType.isDynamicDim(0) &&
        axesType.getDimSize(0) > std::max<int64_t>(rank, 1)) {
      return op->emitOpError("'axes' has ")
             << axesType.getDimSize(0) << " entries for an input of rank "
             << rank;
    }
  }
  SmallVector<int64_t> axes;
  if (!isNone(axesOperand)) {
    auto constant = getConstantInts(axesOperand);
    if (!constant) {
      // Unknown axes: with keepdims the rank is known, not the sizes.
      inferred.push_back(
          keepDims ? withShape(resultType, SmallVector<int64_t>(rank, kDynamic))
                   : resultType);
      return success();
    }
    axes = *constant;
  }
  if (axes.empty()) {
    if (noopWhenEmpty) {
      inferred.push_back(withShape(resultType, data.getShape()));
      return success();
    }
    for (int64_t i = 0; i < rank; ++i) {
      axes.push_back(i);
    }
  }
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes) {
    auto normalized = normalizeAxis(axis, rank);
    if (!normalized) {
      return op->emitOpError("reduction axis ")
             << axis << " is out of range for rank " << rank;
    }
    reduced[*normalized] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i]) {
      shape.push_back(data.getDimSize(i));
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

} // namespace

LogicalResult inferResultTypesFromTraits(Operation *op,
                                         SmallVectorImpl<Type> &inferred) {
  if (op->hasTrait<SameShapeInference>() && op->getNumOperands() > 0) {
    inferSameShape(op, inferred);
    return success();
  }
  if (op->hasTrait<BroadcastShapeInference>()) {
    return inferBroadcast(op, inferred);
  }
  if (op->hasTrait<ReduceShapeInference>()) {
    return inferReduce(op, inferred);
  }
  llvm::append_range(inferred, op->getResultTypes());
  return success();
}

} // namespace infer::graph
