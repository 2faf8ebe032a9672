//===- ReductionOps.cpp - reduction graph ops -----------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

static LogicalResult verifyArgAxis(Operation *op, Value data, int64_t axis) {
  auto ranked = getRanked(data);
  if (ranked && !normalizeAxis(axis, std::max<int64_t>(ranked.getRank(), 1))) {
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << ranked.getRank();
  }
  return success();
}

static Type inferArg(Value data, Type resultType, int64_t axis, bool keepDims) {
  auto ranked = getRanked(data);
  if (!ranked) {
    return resultType;
  }
  auto normalized = normalizeAxis(axis, ranked.getRank());
  if (!normalized) {
    return resultType;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < ranked.getRank(); ++i) {
    if (i != *normalized) {
      shape.push_back(ranked.getDimSize(i));
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  return withShape(resultType, shape);
}

LogicalResult ArgMaxOp::verify() {
  return verifyArgAxis(*this, getData(), getAxis());
}

LogicalResult ArgMaxOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferArg(getData(), getReduced().getType(), getAxis(),
                              getKeepdims() != 0));
  return success();
}

LogicalResult ArgMinOp::verify() {
  return verifyArgAxis(*this, getData(), getAxis());
}

LogicalResult ArgMinOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferArg(getData(), getReduced().getType(), getAxis(),
                              getKeepdims() != 0));
  return success();
}

//===----------------------------------------------------------------------===//
// Folding integer reductions of constants (element counts in shape math)
//===----------------------------------------------------------------------===//

namespace {
enum class ReduceKind { Sum, Prod, Max, Min, Other };

OpFoldResult foldIntReduce(Operation *op, Attribute dataAttr, Value axesValue,
                           ReduceKind kind) {
  auto data = getFoldableElements(dataAttr);
  auto type = getFoldableType(op->getResult(0).getType());
  if (kind == ReduceKind::Other || !data || !type ||
      !isa<IntegerType>(data.getElementType())) {
    return {};
  }
  ArrayRef<int64_t> inShape = data.getType().getShape();
  int64_t rank = inShape.size();
  SmallVector<bool> reduced(rank, false);
  if (isNone(axesValue)) {
    if (auto noop = op->getAttrOfType<IntegerAttr>("noop_with_empty_axes");
        noop && noop.getInt()) {
      return {};
    }
    reduced.assign(rank, true);
  } else {
    auto axes = getConstantInts(axesValue);
    if (!axes) {
      return {};
    }
    for (int64_t axis : *axes) {
      auto normalized = normalizeAxis(axis, rank);
      if (!normalized) {
        return {};
      }
      reduced[*normalized] = true;
    }
    if (axes->empty()) {
      reduced.assign(rank, true);
    }
  }
  // Output coordinates drop (or keep as 0) the reduced dimensions.
  unsigned width = data.getElementType().getIntOrFloatBitWidth();
  bool isUnsigned = data.getElementType().isUnsignedInteger();
  SmallVector<std::optional<APInt>> acc(type.getNumElements());
  int64_t index = 0;
  for (const APInt &value : data.getValues<APInt>()) {
    int64_t rest = index++, out = 0, stride = 1;
    SmallVector<int64_t> coords(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      coords[d] = rest % inShape[d];
      rest /= inShape[d];
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (!reduced[d]) {
        out += coords[d] * stride;
        stride *= inShape[d];
      }
    }
    std::optional<APInt> &slot = acc[out];
    if (!slot) {
      slot = value;
      continue;
    }
    switch (kind) {
    case ReduceKind::Sum:
      *slot += value;
      break;
    case ReduceKind::Prod:
      *slot *= value;
      break;
    case ReduceKind::Max:
      if (isUnsigned ? value.ugt(*slot) : value.sgt(*slot)) {
        slot = value;
      }
      break;
    case ReduceKind::Min:
      if (isUnsigned ? value.ult(*slot) : value.slt(*slot)) {
        slot = value;
      }
      break;
    case ReduceKind::Other:
      break;
    }
  }
  SmallVector<APInt> result;
  for (auto &slot : acc) {
    // An empty reduction gives the identity.
    result.push_back(slot ? *slot
                          : APInt(width, kind == ReduceKind::Prod ? 1 : 0));
  }
  return DenseElementsAttr::get(type, result);
}
} // namespace

#define INFER_REDUCE_FOLDER(OP, KIND)                                          \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldIntReduce(*this, adaptor.getData(), getAxes(), KIND);           \
  }
INFER_REDUCE_FOLDER(ReduceSumOp, ReduceKind::Sum)
INFER_REDUCE_FOLDER(ReduceProdOp, ReduceKind::Prod)
INFER_REDUCE_FOLDER(ReduceMaxOp, ReduceKind::Max)
INFER_REDUCE_FOLDER(ReduceMinOp, ReduceKind::Min)
INFER_REDUCE_FOLDER(ReduceL1Op, ReduceKind::Other)
INFER_REDUCE_FOLDER(ReduceL2Op, ReduceKind::Other)
INFER_REDUCE_FOLDER(ReduceLogSumOp, ReduceKind::Other)
INFER_REDUCE_FOLDER(ReduceLogSumExpOp, ReduceKind::Other)
INFER_REDUCE_FOLDER(ReduceMeanOp, ReduceKind::Other)
INFER_REDUCE_FOLDER(ReduceSumSquareOp, ReduceKind::Other)
#undef INFER_REDUCE_FOLDER

#define GET_OP_CLASSES
#include "dialects/graph/IR/ReductionOps.cpp.inc"
