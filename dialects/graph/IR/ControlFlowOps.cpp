//===- ControlFlowOps.cpp - subgraph and sequence ops ---------------------===//

#include "dialects/graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

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
