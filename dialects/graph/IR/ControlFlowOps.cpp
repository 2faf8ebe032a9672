//===- ControlFlowOps.cpp - subgraph and sequence ops ---------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace infer::graph;

/// The values a single-block region yields.
static ValueRange yieldedValues(Region &region) {
  if (region.empty()) {
    return {};
  }
  if (auto yield = dyn_cast<YieldOp>(region.front().getTerminator())) {
    return yield.getValues();
  }
  return {};
}

LogicalResult IfOp::verify() {
  for (Region *region : {&getThenBranch(), &getElseBranch()}) {
    ValueRange values = yieldedValues(*region);
    if (values.size() != getNumResults()) {
      return emitOpError("branch yields ")
             << values.size() << " values, but the op has " << getNumResults()
             << " results";
    }
  }
  return success();
}

LogicalResult IfOp::canonicalize(IfOp op, PatternRewriter &rewriter) {
  DenseElementsAttr cond = getConstantElements(op.getCond());
  if (!cond || cond.getNumElements() != 1) {
    return failure();
  }
  bool taken = isa<FloatType>(cond.getElementType())
                   ? !(*cond.getValues<APFloat>().begin()).isZero()
                   : !(*cond.getValues<APInt>().begin()).isZero();
  Block *branch = &(taken ? op.getThenBranch() : op.getElseBranch()).front();
  auto yield = cast<YieldOp>(branch->getTerminator());
  SmallVector<Value> results(yield.getValues());
  rewriter.inlineBlockBefore(branch, op);
  rewriter.eraseOp(yield);
  // The branch's values may be more precise than the If's declared results;
  // shape propagation carries that on.
  rewriter.replaceOp(op, results);
  return success();
}

LogicalResult LoopOp::verify() {
  Block &body = getBody().front();
  size_t carried = getVInitial().size();
  if (body.getNumArguments() != carried + 2) {
    return emitOpError("body takes ")
           << body.getNumArguments() << " arguments, expected " << carried + 2
           << " (iteration number, condition, loop-carried values)";
  }
  ValueRange values = yieldedValues(getBody());
  if (values.size() != 1 + getNumResults()) {
    return emitOpError("body yields ")
           << values.size() << " values, expected " << 1 + getNumResults()
           << " (condition, loop-carried values, scan outputs)";
  }
  if (getNumResults() < carried) {
    return emitOpError("has fewer results than loop-carried values");
  }
  return success();
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/ControlFlowOps.cpp.inc"
