//===- ReductionLowering.cpp - Reduce*, ArgMax, ArgMin -> linalg ----------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/reduction/ArgReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using scalar::absOf;
using scalar::add;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;

bool isF(Value v) { return isa<FloatType>(v.getType()); }
/// Normalized, sorted reduction axes of a reduce op, or failure.
FailureOr<SmallVector<int64_t>> reduceAxes(Operation *op, Value axesOperand,
                                           int64_t rank, bool noopWhenEmpty,
                                           bool &noop) {
  SmallVector<int64_t> axes;
  noop = false;
  if (!isNone(axesOperand)) {
    auto c = constantInts(axesOperand);
    if (!c) {
      return failure();
    }
    for (int64_t a : *c) {
      axes.push_back(*normalizeAxis(a, rank));
    }
  }
  if (axes.empty()) {
    if (noopWhenEmpty) {
      noop = true;
      return axes;
    }
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

enum class Reduce {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

/// A reduction without keepdims over axes known only at run time (static
/// shapes): each element of `input` is combined into the result element of
/// its kept coordinates. A run whose axes keep dims other than the result's
/// fails a check naming `op`. Sets `count` to the reduced element count.
Value reduceRuntimeAxes(
    OpBuilder &b, Operation *op, Value input, Value axesTensor,
    RankedTensorType outType, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    Value &count) {
  Location loc = op->getLoc();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  int64_t numAxes =
      cast<RankedTensorType>(axesTensor.getType()).getNumElements();
  // reduced[d]: some (wrapped) axis names dim d.
  SmallVector<Value> reduced;
  for (int64_t d = 0; d < rank; ++d) {
    Value any = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (int64_t k = 0; k < numAxes; ++k) {
      Value a = tensor::ExtractOp::create(b, loc, axesTensor,
                                          ValueRange{indexConstant(b, loc, k)});
      a = arith::IndexCastOp::create(b, loc, b.getIndexType(), a);
      Value wrapped = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a,
                                indexConstant(b, loc, 0)),
          arith::AddIOp::create(b, loc, a, indexConstant(b, loc, rank)), a);
      any = arith::OrIOp::create(
          b, loc, any,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wrapped,
                                indexConstant(b, loc, d)));
    }
    reduced.push_back(any);
  }
  // The kept dims, in order, must be the result's.
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value next = indexConstant(b, loc, 0);
  for (int64_t d = 0; d < rank; ++d) {
    Value want = indexConstant(b, loc, -1);
    for (int64_t p = 0; p < outType.getRank(); ++p) {
      Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                         indexConstant(b, loc, p));
      want = arith::SelectOp::create(
          b, loc, here, indexConstant(b, loc, outType.getDimSize(p)), want);
    }
    Value fits =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, want,
                              indexConstant(b, loc, inType.getDimSize(d)));
    ok = arith::AndIOp::create(b, loc, ok,
                               arith::OrIOp::create(b, loc, reduced[d], fits));
    next = arith::SelectOp::create(
        b, loc, reduced[d], next,
        arith::AddIOp::create(b, loc, next, indexConstant(b, loc, 1)));
    count = arith::SelectOp::create(
        b, loc, reduced[d],
        arith::MulIOp::create(b, loc, count,
                              indexConstant(b, loc, inType.getDimSize(d))),
        count);
  }
  ok = arith::AndIOp::create(
      b, loc, ok,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                            indexConstant(b, loc, outType.getRank())));
  assertAtRunTime(b, op, ok,
                  "the axes given at run time keep other dims than the model "
                  "declares for the result");
  Value acc = filledTensor(b, loc, outType, init);
  int64_t total = outType.getNumElements();
  return forLoop(
      b, loc, indexConstant(b, loc, 0),
      indexConstant(b, loc, inType.getNumElements()), {acc},
      [&](OpBuilder &lb, Location l, Value k, ValueRange state) {
        SmallVector<Value> at = delinearize(lb, l, k, inType.getShape());
        Value flat = indexConstant(lb, l, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value grown = arith::AddIOp::create(
              lb, l,
              arith::MulIOp::create(lb, l, flat,
                                    indexConstant(lb, l, inType.getDimSize(d))),
              at[d]);
          flat = arith::SelectOp::create(lb, l, reduced[d], flat, grown);
        }
        flat = arith::MinUIOp::create(
            lb, l, flat, indexConstant(lb, l, std::max<int64_t>(total - 1, 0)));
        SmallVector<Value> out = delinearize(lb, l, flat, outType.getShape());
        Value x = tensor::ExtractOp::create(lb, l, input, at);
        Value old = tensor::ExtractOp::create(lb, l, state[0], out);
        Value updated = tensor::InsertOp::create(lb, l, combine(lb, l, old, x),
                                                 state[0], out);
        return SmallVector<Value>{updated};
      })[0];
}

template <typename Op, Reduce kind>
struct ReduceLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getData();
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = loweredAnyShapeType(op.getReduced().getType());
    Type t = inType.getElementType();
    bool u = isUnsignedTensor(op.getData().getType());
    bool noop;
    auto axes = reduceAxes(op, op.getAxes(), inType.getRank(),
                           op.getNoopWithEmptyAxes() != 0, noop);
    if (failed(axes) &&
        !(inType.hasStaticShape() && outType.hasStaticShape())) {
      return rewriter.notifyMatchFailure(op, "run-time axes with dynamic dims");
    }
    bool runtimeAxes = false;
    if (failed(axes) && op.getKeepdims() == 0) {
      // Axes known only at run time, their dims dropped: computed below by
      // scattering each element into the result, the kept dims checked.
      if (!checksEnabled(op) || isNone(op.getAxes())) {
        return rewriter.notifyMatchFailure(
            op, "run-time axes without keepdims need checks");
      }
      runtimeAxes = true;
      axes = SmallVector<int64_t>();
      noop = false;
    }
    if (failed(axes)) {
      // Axes known only at run time: with keepdims the static result shape
      // names them (reducing a size-1 dimension changes nothing).
      if (outType.getRank() != inType.getRank()) {
        return rewriter.notifyMatchFailure(op,
                                           "run-time axes without keepdims");
      }
      SmallVector<int64_t> inferred;
      for (int64_t d = 0; d < inType.getRank(); ++d) {
        if (outType.getDimSize(d) != inType.getDimSize(d)) {
          if (outType.getDimSize(d) != 1) {
            return rewriter.notifyMatchFailure(op, "unexpected result shape");
          }
          inferred.push_back(d);
        }
      }
      noop = inferred.empty();
      axes = inferred;
    }
    if (noop) {
      rewriter.replaceOp(op, reshapeTo(rewriter, loc, input, outType));
      return success();
    }
    bool keep = op.getKeepdims() != 0;
    Value init;
    switch (kind) {
    case Reduce::Max:
      init = extremeValue(rewriter, loc, t, true, u);
      break;
    case Reduce::Min:
      init = extremeValue(rewriter, loc, t, false, u);
      break;
    case Reduce::Prod:
      init = scalarConstant(rewriter, loc, t, 1);
      break;
    default:
      init = scalarConstant(rewriter, loc, t, 0);
      break;
    }
    auto combine = [&](OpBuilder &b, Location l, Value acc, Value x) -> Value {
      switch (kind) {
      case Reduce::Max:
        return maxOf(b, l, acc, x, u);
      case Reduce::Min:
        return minOf(b, l, acc, x, u);
      case Reduce::Prod:
        return mul(b, l, acc, x);
      case Reduce::L1:
        return add(b, l, acc, absOf(b, l, x, u));
      case Reduce::L2:
      case Reduce::SumSquare:
        return add(b, l, acc, mul(b, l, x, x));
      case Reduce::LogSumExp:
        return add(b, l, acc, math::ExpOp::create(b, l, x));
      default:
        return add(b, l, acc, x);
      }
    };
    // The number of reduced elements (for Mean), known at run time when a
    // reduced dim or the axes are.
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value r;
    if (runtimeAxes) {
      r = reduceRuntimeAxes(rewriter, op, input, adaptor.getAxes(), outType,
                            init, combine, count);
    } else {
      r = buildReduction(rewriter, loc, input, *axes, keep, init, combine);
    }
    for (int64_t a : *axes) {
      count = arith::MulIOp::create(
          rewriter, loc, count,
          getValueOrCreateConstantIndexOp(rewriter, loc,
                                          dimSize(rewriter, loc, input, a)));
    }
    count =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), count);
    count = castScalar(rewriter, loc, count, t, false, false);
    auto rType = cast<RankedTensorType>(r.getType());
    if (kind == Reduce::Mean || kind == Reduce::L2 || kind == Reduce::LogSum ||
        kind == Reduce::LogSumExp) {
      r = buildElementwise(
          rewriter, loc, rType, {r},
          [&](OpBuilder &b, Location l, ValueRange a) -> Value {
            Value v = a[0];
            if (kind == Reduce::Mean) {
              return isF(v)
                         ? arith::DivFOp::create(b, l, v, count).getResult()
                         : arith::DivSIOp::create(b, l, v, count).getResult();
            }
            if (kind == Reduce::L2) {
              if (!isF(v)) {
                Value f = castScalar(b, l, v, b.getF64Type(), u, false);
                return castScalar(b, l, math::SqrtOp::create(b, l, f), t, false,
                                  u);
              }
              return math::SqrtOp::create(b, l, v);
            }
            return math::LogOp::create(b, l, v);
          });
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, r, outType));
    return success();
  }
};

template <typename Op, bool isMax>
struct ArgLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getData();
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = loweredAnyShapeType(op.getReduced().getType());
    int64_t rank = inType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    bool last = op.getSelectLastIndex() != 0;
    bool u = isUnsignedTensor(op.getData().getType());
    Value idx = buildArgReduce(rewriter, loc, input, axis, isMax, last, u);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, idx, outType));
    return success();
  }
};

} // namespace

void populateReductionLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ReduceLowering<ReduceSumOp, Reduce::Sum>,
               ReduceLowering<ReduceMeanOp, Reduce::Mean>,
               ReduceLowering<ReduceMaxOp, Reduce::Max>,
               ReduceLowering<ReduceMinOp, Reduce::Min>,
               ReduceLowering<ReduceProdOp, Reduce::Prod>,
               ReduceLowering<ReduceL1Op, Reduce::L1>,
               ReduceLowering<ReduceL2Op, Reduce::L2>,
               ReduceLowering<ReduceLogSumOp, Reduce::LogSum>,
               ReduceLowering<ReduceLogSumExpOp, Reduce::LogSumExp>,
               ReduceLowering<ReduceSumSquareOp, Reduce::SumSquare>,
               ArgLowering<ArgMaxOp, true>, ArgLowering<ArgMinOp, false>>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
