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
  const char *names[] = {"iteration number", "condition"};
  for (unsigned i = 0; i < 2; ++i) {
    StringRef name = names[i];
    auto type = dyn_cast<RankedTensorType>(body.getArgument(i).getType());
    if (type && type.hasStaticShape() && type.getNumElements() != 1) {
      return emitOpError("the body's ")
             << name << " must be a single value, got " << type;
    }
  }
  // A scan output stacks the body's value of each iteration: one rank more.
  for (size_t i = carried; i < getNumResults(); ++i) {
    auto result = dyn_cast<RankedTensorType>(getResult(i).getType());
    auto part = dyn_cast<RankedTensorType>(values[1 + i].getType());
    if (result && (result.getRank() < 1 ||
                   (part && result.getRank() != part.getRank() + 1))) {
      auto diag = emitOpError("scan output #")
                  << i - carried << " has type " << result
                  << "; it must stack the body's values";
      if (part) {
        diag << " of type " << part;
      }
      return diag << " (one rank more)";
    }
  }
  return success();
}

/// The axes of Scan's scan inputs or outputs: none (all 0) or one per value,
/// each inside [-rank, rank) of its value (`extra` added to the rank: a scan
/// output gains the scanned dim).
static LogicalResult verifyScanAxes(ScanOp op, StringRef name,
                                    std::optional<ArrayRef<int64_t>> axes,
                                    ValueRange values, int64_t extra) {
  if (!axes) {
    return success();
  }
  if (axes->size() != values.size()) {
    return op.emitOpError("'") << name << "' has " << axes->size()
                               << " values, expected " << values.size();
  }
  for (auto [axis, value] : llvm::zip(*axes, values)) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type) {
      continue;
    }
    int64_t rank = type.getRank() + extra;
    if (axis < -rank || axis >= rank) {
      return op.emitOpError("'")
             << name << "' value " << axis
             << " is out of range for a value of rank " << rank;
    }
  }
  return success();
}

LogicalResult ScanOp::verify() {
  int64_t operands = getInitialStateAndScanInputs().size();
  int64_t scanInputs = getNumScanInputs();
  if (scanInputs < 1 || scanInputs > operands) {
    return emitOpError("'num_scan_inputs' is ")
           << scanInputs << "; it must be in [1, " << operands
           << "] (the operands are states, then scan inputs)";
  }
  int64_t states = operands - scanInputs;
  Block &body = getBody().front();
  if (static_cast<int64_t>(body.getNumArguments()) != operands) {
    return emitOpError("body takes ")
           << body.getNumArguments() << " arguments, expected " << operands
           << " (states, then one slice of each scan input)";
  }
  ValueRange values = yieldedValues(getBody());
  if (values.size() != getNumResults()) {
    return emitOpError("body yields ")
           << values.size() << " values, but the op has " << getNumResults()
           << " results (final states, then scan outputs)";
  }
  if (static_cast<int64_t>(getNumResults()) < states) {
    return emitOpError("has ") << getNumResults() << " results, fewer than its "
                               << states << " states";
  }
  ValueRange inputs = getInitialStateAndScanInputs().drop_front(states);
  ValueRange outputs = values.drop_front(states);
  if (failed(verifyScanAxes(*this, "scan_input_axes", getScanInputAxes(),
                            inputs, 0)) ||
      failed(verifyScanAxes(*this, "scan_output_axes", getScanOutputAxes(),
                            outputs, 1))) {
    return failure();
  }
  for (auto [name, directions, count] :
       {std::make_tuple("scan_input_directions", getScanInputDirections(),
                        inputs.size()),
        std::make_tuple("scan_output_directions", getScanOutputDirections(),
                        outputs.size())}) {
    if (directions && directions->size() != count) {
      return emitOpError("'") << name << "' has " << directions->size()
                              << " values, expected " << count;
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/ControlFlowOps.cpp.inc"
