//===- Scatter.cpp - updates applied in order, as ONNX scatters do --------===//
//
// ScatterElements, ScatterND and MaxUnpool write updates into a copy of
// their data one at a time, in order, so later updates win (or combine
// with add/mul/max/min) exactly as ONNX specifies.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/tensor/Scatter.h"
#include "passes/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace infer::lowering {

Value combineScatter(OpBuilder &b, Location l, StringRef reduction, Value old,
                     Value update) {
  bool f = isa<FloatType>(old.getType());
  if (reduction == "add") {
    return f ? arith::AddFOp::create(b, l, old, update).getResult()
             : arith::AddIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "mul") {
    return f ? arith::MulFOp::create(b, l, old, update).getResult()
             : arith::MulIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "max") {
    return f ? arith::MaximumFOp::create(b, l, old, update).getResult()
             : arith::MaxSIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "min") {
    return f ? arith::MinimumFOp::create(b, l, old, update).getResult()
             : arith::MinSIOp::create(b, l, old, update).getResult();
  }
  return update;
}

/// Applies every update in order: `position(b, l, k)` gives the destination
/// coordinates of update element k (flat), `value` its value.
Value scatterLoop(
    OpBuilder &b, Location loc, Value data, int64_t count, StringRef reduction,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> position,
    function_ref<Value(OpBuilder &, Location, Value)> value) {
  // Start from a copy so the input is not written.
  auto type = cast<RankedTensorType>(data.getType());
  Value copy = buildElementwise(
      b, loc, type, data,
      [](OpBuilder &, Location, ValueRange a) { return a[0]; });
  auto loop = scf::ForOp::create(
      b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, count),
      indexConstant(b, loc, 1), ValueRange{copy},
      [&](OpBuilder &nb, Location l, Value k, ValueRange iter) {
        SmallVector<Value> at = position(nb, l, k);
        Value update = value(nb, l, k);
        Value old = tensor::ExtractOp::create(nb, l, iter[0], at);
        Value next = combineScatter(nb, l, reduction, old, update);
        Value inserted = tensor::InsertOp::create(nb, l, next, iter[0], at);
        scf::YieldOp::create(nb, l, inserted);
      });
  return loop.getResult(0);
}

} // namespace infer::lowering
