//===- PropagateShapes.cpp - refine result types from operands ------------===//

#include "passes/graph/Passes.h"
#include "dialects/graph/IR/GraphOps.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_PROPAGATESHAPESPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

using namespace infer::graph;

namespace {

/// The more precise of two types for one value; failure when they conflict.
FailureOr<Type> joinTypes(Type current, Type inferred) {
  auto currentTensor = dyn_cast<TensorType>(current);
  auto inferredTensor = dyn_cast<TensorType>(inferred);
  if (current == inferred || !currentTensor || !inferredTensor ||
      currentTensor.getElementType() != inferredTensor.getElementType()) {
    return current;
  }
  if (!inferredTensor.hasRank()) {
    return current;
  }
  if (!currentTensor.hasRank()) {
    return inferred;
  }
  if (currentTensor.getRank() != inferredTensor.getRank()) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (auto [c, i] : llvm::zip(currentTensor.getShape(),
                               inferredTensor.getShape())) {
    if (ShapedType::isDynamic(c)) {
      shape.push_back(i);
    } else if (ShapedType::isDynamic(i) || c == i) {
      shape.push_back(c);
    } else {
      return failure();
    }
  }
  return RankedTensorType::get(shape, currentTensor.getElementType());
}

struct PropagateShapesPass final
    : infer::graph::impl::PropagateShapesPassBase<PropagateShapesPass> {
  void runOnOperation() override {
    bool changed = false;
    if (failed(propagateShapes(getOperation(), changed))) {
      signalPassFailure();
    }
  }
};

} // namespace

LogicalResult infer::graph::propagateShapes(func::FuncOp func, bool &changed) {
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto iface = dyn_cast<ShapeInferenceOpInterface>(op);
    if (!iface) {
      return WalkResult::advance();
    }
    SmallVector<Type> inferred;
    if (failed(iface.inferResultTypes(inferred))) {
      return WalkResult::interrupt();
    }
    if (inferred.size() != op->getNumResults()) {
      return WalkResult::advance();
    }
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      FailureOr<Type> joined = joinTypes(result.getType(), inferred[i]);
      if (failed(joined)) {
        op->emitOpError("result #")
            << i << ": inferred type " << inferred[i]
            << " conflicts with the declared type " << result.getType();
        return WalkResult::interrupt();
      }
      if (*joined != result.getType()) {
        result.setType(*joined);
        changed = true;
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted()) {
    return failure();
  }
  // The function returns what its body produces.
  if (!func.getBody().empty()) {
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    auto type = FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                  ret.getOperandTypes());
    if (type != func.getFunctionType()) {
      func.setType(type);
    }
  }
  return success();
}
