//===- RuntimeChecks.cpp - asserts the run checks, naming the node --------===//

#include "passes/lowering/RuntimeChecks.h"
#include "dialects/graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "passes/lowering/IndexMath.h"
#include "passes/lowering/TensorBuilders.h"

using namespace mlir;

namespace infer::lowering {

std::string describeNode(Operation *op) {
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty()) {
    loc = fused.getLocations().front();
  }
  if (auto name = dyn_cast<NameLoc>(loc)) {
    std::string text = "node '" + name.getName().str() + "'";
    if (auto opType = dyn_cast<NameLoc>(name.getChildLoc())) {
      text += " (" + opType.getName().str() + ")";
    }
    return text;
  }
  return "'" + op->getName().getStringRef().str() + "'";
}

bool checksEnabled(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  return module && module->hasAttr(kChecksAttr);
}

void assertAtRunTime(OpBuilder &b, Operation *op, Value flag, StringRef what) {
  cf::AssertOp::create(b, op->getLoc(), flag,
                       describeNode(op) + ": " + what.str());
}

void assertIndicesInRange(OpBuilder &b, Operation *op, Value indices,
                          ArrayRef<int64_t> bounds, bool perLastDim) {
  assertIndicesInRange(b, op, indices, bounds, Value(), perLastDim);
}

void assertIndicesInRange(OpBuilder &b, Operation *op, Value indices,
                          Value bound) {
  assertIndicesInRange(b, op, indices, {}, bound, false);
}

void assertIndicesInRange(OpBuilder &b, Operation *op, Value indices,
                          ArrayRef<int64_t> bounds, Value bound,
                          bool perLastDim) {
  if (!checksEnabled(op)) {
    return;
  }
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  // ok = AND over the elements of (-n <= i < n).
  Value inRange = buildIndexed(
      b, loc, RankedTensorType::get(type.getShape(), b.getI1Type()),
      [&](OpBuilder &nb, Location l, ArrayRef<Value> at) {
        Value i = tensor::ExtractOp::create(nb, l, indices, at);
        Type t = i.getType();
        Value n;
        if (perLastDim && rank > 0 && bounds.size() > 1) {
          // Pick bounds[k] by the last coordinate.
          n = scalarConstant(nb, l, t, bounds[0]);
          for (size_t k = 1; k < bounds.size(); ++k) {
            Value isK =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                      at.back(), indexConstant(nb, l, k));
            n = arith::SelectOp::create(nb, l, isK,
                                        scalarConstant(nb, l, t, bounds[k]), n);
          }
        } else if (bound) {
          n = arith::IndexCastOp::create(nb, l, t, bound);
        } else {
          n = scalarConstant(nb, l, t, bounds[0]);
        }
        Value neg =
            arith::SubIOp::create(nb, l, scalarConstant(nb, l, t, 0), n);
        return arith::AndIOp::create(
                   nb, l,
                   arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, i,
                                         neg),
                   arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, i,
                                         n))
            .getResult();
      },
      llvm::to_vector(llvm::map_range(
          all, [&](int64_t d) { return dimSize(b, loc, indices, d); })));
  Value ok =
      rank == 0 ? inRange
                : buildReduction(
                      b, loc, inRange, all, /*keepDims=*/false,
                      arith::ConstantIntOp::create(b, loc, 1, 1),
                      [](OpBuilder &nb, Location l, Value acc, Value v) {
                        return arith::AndIOp::create(nb, l, acc, v).getResult();
                      });
  Value flag = tensor::ExtractOp::create(b, loc, ok, ValueRange{});
  assertAtRunTime(
      b, op, flag,
      "an index is out of range (ONNX allows -n to n-1 for an axis of size n)");
}

} // namespace infer::lowering
