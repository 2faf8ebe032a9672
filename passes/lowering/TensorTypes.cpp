//===- TensorTypes.cpp - what a lowering pattern accepts ------------------===//

#include "passes/lowering/TensorTypes.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

using namespace mlir;

namespace infer::lowering {

static Type signless(Type element) {
  if (auto integer = dyn_cast<IntegerType>(element)) {
    return IntegerType::get(element.getContext(), integer.getWidth());
  }
  return element;
}

RankedTensorType loweredTensorType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape()) {
    return nullptr;
  }
  return loweredAnyShapeType(type);
}

RankedTensorType loweredAnyShapeType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked) {
    return nullptr;
  }
  Type element = ranked.getElementType();
  if (!isa<IntegerType, FloatType>(element)) {
    return nullptr;
  }
  return RankedTensorType::get(ranked.getShape(), signless(element));
}

bool isUnsignedTensor(Type type) {
  // Bools (i1) hold 0 or 1: unsigned, so true > false and max is "or".
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && (tensor.getElementType().isUnsignedInteger() ||
                    tensor.getElementType().isInteger(1));
}

LogicalResult checkStaticTensors(Operation *op,
                                 ConversionPatternRewriter &rewriter) {
  return checkTensors(op, rewriter, /*allowDynamic=*/false);
}

LogicalResult checkTensors(Operation *op, ConversionPatternRewriter &rewriter,
                           bool allowDynamic) {
  for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                      llvm::to_vector(op->getResultTypes()))) {
    if (isa<NoneType>(type)) {
      continue;
    }
    if (!(allowDynamic ? loweredAnyShapeType(type) : loweredTensorType(type))) {
      return rewriter.notifyMatchFailure(
          op, allowDynamic ? "needs ranked tensors of numbers"
                           : "needs statically shaped tensors of numbers");
    }
  }
  return success();
}

std::optional<SmallVector<int64_t>> constantInts(Value value) {
  return graph::getConstantInts(value);
}

bool onlyBatchDynamic(Operation *op) {
  for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                      llvm::to_vector(op->getResultTypes()))) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (ranked && ranked.getRank() > 0 &&
        !ranked.getShape().drop_front().empty() &&
        llvm::any_of(ranked.getShape().drop_front(), ShapedType::isDynamic)) {
      return false;
    }
  }
  return true;
}

Value noneValue(OpBuilder &b, Location loc) {
  return graph::NoneOp::create(b, loc, b.getNoneType());
}

} // namespace infer::lowering
