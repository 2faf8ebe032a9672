//===- PropagateShapes.cpp - refine result types from operands ------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/TensorLimits.h"
#include "passes/graph/Passes.h"

#include "mlir/IR/Verifier.h"

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
  for (auto [c, i] :
       llvm::zip(currentTensor.getShape(), inferredTensor.getShape())) {
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

/// Joins `value`'s type with `inferred` in place; failure on a conflict.
LogicalResult refine(Value value, Type inferred, bool &changed) {
  FailureOr<Type> joined = joinTypes(value.getType(), inferred);
  if (failed(joined)) {
    return failure();
  }
  if (*joined != value.getType()) {
    value.setType(*joined);
    changed = true;
  }
  return success();
}

/// `type` with dimension `axis` removed (a scan slice) or inserted with
/// size `size` (a stacked scan output); null when the rank is unknown.
Type dropDim(Type type, int64_t axis) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || axis < 0 || axis >= ranked.getRank()) {
    return nullptr;
  }
  SmallVector<int64_t> shape(ranked.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, ranked.getElementType());
}
Type insertDim(Type type, int64_t axis, int64_t size) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || axis < 0 || axis > ranked.getRank()) {
    return nullptr;
  }
  SmallVector<int64_t> shape(ranked.getShape());
  shape.insert(shape.begin() + axis, size);
  return RankedTensorType::get(shape, ranked.getElementType());
}

/// Scan: the body's states have the initial states' types and its slices
/// the scan inputs' types less the scan axis; the results are the yielded
/// states and the yielded slices stacked along the output axes.
LogicalResult refineScan(ScanOp op, bool &changed) {
  Block &body = op.getBody().front();
  ValueRange operands = op.getInitialStateAndScanInputs();
  size_t numScanIn = op.getNumScanInputs();
  size_t numStates = operands.size() - numScanIn;
  if (body.getNumArguments() != operands.size()) {
    return success();
  }
  auto axisList = [](std::optional<ArrayRef<int64_t>> values,
                     size_t k) -> int64_t {
    return values && k < values->size() ? (*values)[k] : 0;
  };
  int64_t length = ShapedType::kDynamic;
  for (size_t i = 0; i < operands.size(); ++i) {
    Type inferred = operands[i].getType();
    if (i >= numStates) {
      auto ranked = dyn_cast<RankedTensorType>(inferred);
      if (!ranked) {
        continue;
      }
      int64_t axis = axisList(op.getScanInputAxes(), i - numStates);
      axis = axis < 0 ? axis + ranked.getRank() : axis;
      if (axis >= 0 && axis < ranked.getRank()) {
        length = ranked.getDimSize(axis);
      }
      inferred = dropDim(inferred, axis);
    }
    if (inferred && failed(refine(body.getArgument(i), inferred, changed))) {
      return op.emitOpError("body argument #")
             << i << " conflicts with operand type " << inferred;
    }
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != op.getNumResults()) {
    return success();
  }
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Type inferred = value.getType();
    if (i >= numStates) {
      int64_t axis = axisList(op.getScanOutputAxes(), i - numStates);
      if (auto ranked = dyn_cast<RankedTensorType>(inferred);
          ranked && axis < 0) {
        axis += ranked.getRank() + 1;
      }
      inferred = insertDim(inferred, axis, length);
    }
    if (inferred && failed(refine(op.getResult(i), inferred, changed))) {
      return op.emitOpError("result #")
             << i << " conflicts with the body's " << inferred;
    }
  }
  return success();
}

/// Loop: the body takes the iteration number and condition (scalars) and
/// the loop-carried values with their initial types; the results are the
/// yielded loop-carried values and the yielded scan slices stacked along a
/// new first dimension of unknown length.
LogicalResult refineLoop(LoopOp op, bool &changed) {
  Block &body = op.getBody().front();
  ValueRange initial = op.getVInitial();
  if (body.getNumArguments() != initial.size() + 2) {
    return success();
  }
  MLIRContext *ctx = op.getContext();
  Type scalars[2] = {RankedTensorType::get({}, IntegerType::get(ctx, 64)),
                     RankedTensorType::get({}, IntegerType::get(ctx, 1))};
  for (int i = 0; i < 2; ++i) {
    auto current = dyn_cast<TensorType>(body.getArgument(i).getType());
    if (current && current.getElementType() ==
                       cast<TensorType>(scalars[i]).getElementType()) {
      (void)refine(body.getArgument(i), scalars[i], changed);
    }
  }
  for (auto [i, value] : llvm::enumerate(initial)) {
    if (failed(refine(body.getArgument(i + 2), value.getType(), changed))) {
      return op.emitOpError("loop-carried value #") << i << " changes type";
    }
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != op.getNumResults() + 1) {
    return success();
  }
  for (auto [i, value] : llvm::enumerate(yield.getValues().drop_front())) {
    Type inferred = value.getType();
    if (i >= initial.size()) {
      inferred = insertDim(inferred, 0, ShapedType::kDynamic);
    } else if (failed(joinTypes(body.getArgument(i + 2).getType(), inferred))) {
      return op.emitOpError("loop-carried value #")
             << i << " changes shape from one iteration to the next ("
             << body.getArgument(i + 2).getType() << " to " << inferred
             << "), which is not supported";
    }
    if (inferred && failed(refine(op.getResult(i), inferred, changed))) {
      return op.emitOpError("result #")
             << i << " conflicts with the body's " << inferred;
    }
  }
  return success();
}

/// What two branches' values have in common: the dims they agree on.
Type meetTypes(Type a, Type b) {
  auto x = dyn_cast<RankedTensorType>(a), y = dyn_cast<RankedTensorType>(b);
  if (a == b) {
    return a;
  }
  if (!x || !y || x.getElementType() != y.getElementType()) {
    return nullptr;
  }
  if (x.getRank() != y.getRank()) {
    return UnrankedTensorType::get(x.getElementType());
  }
  SmallVector<int64_t> shape;
  for (auto [u, v] : llvm::zip(x.getShape(), y.getShape())) {
    shape.push_back(u == v ? u : ShapedType::kDynamic);
  }
  return RankedTensorType::get(shape, x.getElementType());
}

/// If: each result is what both branches yield; dims the branches disagree
/// on stay dynamic. A declared type that contradicts it gives way (with a
/// warning), as for other ops.
LogicalResult refineIf(IfOp op, bool &changed) {
  auto yields = [](Region &region) -> std::optional<ValueRange> {
    if (region.empty()) {
      return std::nullopt;
    }
    if (auto yield = dyn_cast<YieldOp>(region.front().getTerminator())) {
      return yield.getValues();
    }
    return std::nullopt;
  };
  auto thenValues = yields(op.getThenBranch());
  auto elseValues = yields(op.getElseBranch());
  if (!thenValues || !elseValues || thenValues->size() != op.getNumResults() ||
      elseValues->size() != op.getNumResults()) {
    return success();
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    Type inferred =
        meetTypes((*thenValues)[i].getType(), (*elseValues)[i].getType());
    if (!inferred) {
      continue;
    }
    if (failed(refine(result, inferred, changed))) {
      op->emitWarning("result #")
          << i << ": the model declares " << result.getType()
          << ", but the branches give " << inferred << "; using the latter";
      result.setType(inferred);
      changed = true;
    }
  }
  return success();
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

/// One pass over the function in program order.
static LogicalResult propagateOnce(func::FuncOp func, bool &changed) {
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Subgraph ops: their block arguments now, their results from what the
    // body yielded (on the next round, after the body is refined).
    if (auto scan = dyn_cast<ScanOp>(op)) {
      return failed(refineScan(scan, changed)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    }
    if (auto loop = dyn_cast<LoopOp>(op)) {
      return failed(refineLoop(loop, changed)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    }
    auto iface = dyn_cast<ShapeInferenceOpInterface>(op);
    if (!iface) {
      return WalkResult::advance();
    }
    // A refined operand can break what the op's verifier checked on the
    // imported types (a Transpose's `perm` against an input whose rank was
    // unknown): inference assumes a verified op, so check it again first.
    SmallVector<Type> inferred;
    if (failed(mlir::verify(op, /*verifyRecursively=*/false)) ||
        failed(iface.inferResultTypes(inferred))) {
      return WalkResult::interrupt();
    }
    if (inferred.size() != op->getNumResults()) {
      return WalkResult::advance();
    }
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      FailureOr<Type> joined = joinTypes(result.getType(), inferred[i]);
      if (failed(joined)) {
        // The exporter declared a shape the computation does not give (ONNX
        // Runtime and OpenVINO run such models too): what the operands give
        // is the truth, and the user hears about the declaration.
        op->emitWarning("result #")
            << i << ": the model declares " << result.getType()
            << ", but the operands give " << inferred[i]
            << "; using the latter";
        joined = inferred[i];
      }
      if (*joined != result.getType()) {
        if (exceedsTensorLimit(*joined)) {
          op->emitOpError("result #")
              << i << " would be " << *joined
              << ", more than 2^48 bytes (a corrupt or hostile model?)";
          return WalkResult::interrupt();
        }
        result.setType(*joined);
        changed = true;
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted()) {
    return failure();
  }
  // Subgraph results, now that their bodies are refined (innermost first).
  result = func.walk([&](Operation *op) {
    LogicalResult refined = success();
    if (auto scan = dyn_cast<ScanOp>(op)) {
      refined = refineScan(scan, changed);
    } else if (auto loop = dyn_cast<LoopOp>(op)) {
      refined = refineLoop(loop, changed);
    } else if (auto ifOp = dyn_cast<IfOp>(op)) {
      refined = refineIf(ifOp, changed);
    }
    return failed(refined) ? WalkResult::interrupt() : WalkResult::advance();
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

LogicalResult infer::graph::propagateShapes(func::FuncOp func, bool &changed) {
  // A subgraph's results feed ops earlier in program order than its body's
  // last refinement, so repeat while types still change (each round only
  // makes types more precise, so this ends).
  for (int round = 0; round < 16; ++round) {
    bool roundChanged = false;
    if (failed(propagateOnce(func, roundChanged))) {
      return failure();
    }
    if (!roundChanged) {
      break;
    }
    changed = true;
  }
  return success();
}
