//===- ReductionLowering.cpp - reductions, softmax, normalization ---------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using scalar::add;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;

bool isF(Value v) { return isa<FloatType>(v.getType()); }
/// The extreme value of an element type (for max/min reductions).
Value extreme(OpBuilder &b, Location l, Type t, bool lowest, bool isUnsigned) {
  if (isa<FloatType>(t)) {
    return scalarConstant(b, l, t, lowest ? -INFINITY : INFINITY);
  }
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v = isUnsigned
                ? (lowest ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                : (lowest ? APInt::getSignedMinValue(w)
                          : APInt::getSignedMaxValue(w));
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(t, v));
}

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
      init = extreme(rewriter, loc, t, true, u);
      break;
    case Reduce::Min:
      init = extreme(rewriter, loc, t, false, u);
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
        return add(b, l, acc,
                   isF(x)
                       ? math::AbsFOp::create(b, l, x).getResult()
                       : (u ? x : math::AbsIOp::create(b, l, x).getResult()));
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
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getData();
    auto inType = cast<RankedTensorType>(input.getType());
    auto outType = loweredTensorType(op.getReduced().getType());
    int64_t rank = inType.getRank();
    int64_t axis = *normalizeAxis(op.getAxis(), rank);
    bool last = op.getSelectLastIndex() != 0;
    bool u = isUnsignedTensor(op.getData().getType());
    Type t = inType.getElementType();
    SmallVector<int64_t> kept = reducedShape(inType.getShape(), {axis}, true);
    auto valType = RankedTensorType::get(kept, t);
    auto idxType = RankedTensorType::get(kept, rewriter.getI64Type());
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      outExprs.push_back(d == axis ? getAffineConstantExpr(0, ctx)
                                   : getAffineDimExpr(d, ctx));
      iterators.push_back(d == axis ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
    }
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    Value vals = filledTensor(rewriter, loc, valType,
                              extreme(rewriter, loc, t, isMax, u));
    Value idxs =
        filledTensor(rewriter, loc, idxType,
                     scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valType, idxType}, ValueRange{input},
        ValueRange{vals, idxs},
        SmallVector<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                               outMap, outMap},
        iterators, [&](OpBuilder &b, Location l, ValueRange a) {
          Value x = a[0], best = a[1], bestIdx = a[2];
          Value i = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          Value better;
          if (isF(x)) {
            auto pred = isMax ? (last ? arith::CmpFPredicate::OGE
                                      : arith::CmpFPredicate::OGT)
                              : (last ? arith::CmpFPredicate::OLE
                                      : arith::CmpFPredicate::OLT);
            better = arith::CmpFOp::create(b, l, pred, x, best);
          } else {
            auto pred = isMax ? (last ? (u ? arith::CmpIPredicate::uge
                                           : arith::CmpIPredicate::sge)
                                      : (u ? arith::CmpIPredicate::ugt
                                           : arith::CmpIPredicate::sgt))
                              : (last ? (u ? arith::CmpIPredicate::ule
                                           : arith::CmpIPredicate::sle)
                                      : (u ? arith::CmpIPredicate::ult
                                           : arith::CmpIPredicate::slt));
            better = arith::CmpIOp::create(b, l, pred, x, best);
          }
          // The first element always initialises the result.
          Value first =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, i,
                                    scalarConstant(b, l, b.getI64Type(), 0));
          better = arith::OrIOp::create(b, l, better, first);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, better, x, best),
                         arith::SelectOp::create(b, l, better, i, bestIdx)});
        });
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, generic.getResult(1), outType));
    return success();
  }
};

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

template <typename Op, SoftmaxKind kind>
struct SoftmaxLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter,
                            /*allowDynamic=*/kind != SoftmaxKind::Hardmax))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    Type t = type.getElementType();
    int64_t axis =
        *normalizeAxis(op.getAxis(), std::max<int64_t>(type.getRank(), 1));
    if (kind == SoftmaxKind::Hardmax) {
      Value max = buildReduction(
          rewriter, loc, x, {axis}, true,
          scalarConstant(rewriter, loc, t, -INFINITY),
          [](OpBuilder &b, Location l, Value acc, Value v) {
            return arith::MaximumFOp::create(b, l, acc, v).getResult();
          });
      // One-hot of the first maximum along the axis.
      Value result = buildIndexed(
          rewriter, loc, type,
          [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
            // First index j along the axis with x == max.
            SmallVector<Value> maxIdx(out);
            maxIdx[axis] = indexConstant(b, l, 0);
            Value m = tensor::ExtractOp::create(b, l, max, maxIdx);
            Value v = tensor::ExtractOp::create(b, l, x, out);
            Value isMax =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, v, m);
            // Is any earlier element also the maximum? Scan j < out[axis].
            Value earlier = arith::ConstantIntOp::create(b, l, 0, 1);
            for (int64_t j = 0; j < type.getDimSize(axis); ++j) {
              SmallVector<Value> at(out);
              at[axis] = indexConstant(b, l, j);
              Value e = tensor::ExtractOp::create(b, l, x, at);
              Value eq =
                  arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, e, m);
              Value before =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                        indexConstant(b, l, j), out[axis]);
              earlier = arith::OrIOp::create(
                  b, l, earlier, arith::AndIOp::create(b, l, eq, before));
            }
            Value notEarlier = arith::XOrIOp::create(
                b, l, earlier, arith::ConstantIntOp::create(b, l, 1, 1));
            Value hot = arith::AndIOp::create(b, l, isMax, notEarlier);
            return arith::SelectOp::create(b, l, hot,
                                           scalarConstant(b, l, t, 1),
                                           scalarConstant(b, l, t, 0))
                .getResult();
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    rewriter.replaceOp(op, buildSoftmax(rewriter, loc, x, axis,
                                        kind == SoftmaxKind::LogSoftmax));
    return success();
  }
};

template <typename Op, Reduce kind>
struct GlobalPoolLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto type = cast<RankedTensorType>(x.getType());
    Type t = type.getElementType();
    auto axes = llvm::to_vector(llvm::seq<int64_t>(2, type.getRank()));
    int64_t count = 1;
    for (int64_t a : axes) {
      count *= type.getDimSize(a);
    }
    double p = 2;
    if constexpr (kind == Reduce::L2) {
      p = op.getP();
    }
    Value r = buildReduction(
        rewriter, loc, x, axes, true,
        kind == Reduce::Max ? scalarConstant(rewriter, loc, t, -INFINITY)
                            : scalarConstant(rewriter, loc, t, 0),
        [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          if (kind == Reduce::Max) {
            return arith::MaximumFOp::create(b, l, acc, v);
          }
          if (kind == Reduce::L2) {
            v = math::PowFOp::create(b, l, math::AbsFOp::create(b, l, v),
                                     scalarConstant(b, l, t, p));
          }
          return arith::AddFOp::create(b, l, acc, v);
        });
    if (kind != Reduce::Max) {
      r = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(r.getType()), {r},
          [&](OpBuilder &b, Location l, ValueRange a) -> Value {
            if (kind == Reduce::L2) {
              return math::PowFOp::create(b, l, a[0],
                                          scalarConstant(b, l, t, 1.0 / p));
            }
            return arith::DivFOp::create(b, l, a[0],
                                         scalarConstant(b, l, t, count));
          });
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// (x - mean) / sqrt(var + eps) over `axes`, as three reductions.
Value normalize(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes,
                double eps, Value *meanOut = nullptr,
                Value *invStdOut = nullptr) {
  auto type = cast<RankedTensorType>(x.getType());
  Type t = type.getElementType();
  int64_t count = 1;
  for (int64_t a : axes) {
    count *= type.getDimSize(a);
  }
  auto add = [](OpBuilder &nb, Location l, Value acc, Value v) {
    return arith::AddFOp::create(nb, l, acc, v).getResult();
  };
  Value sum =
      buildReduction(b, loc, x, axes, true, scalarConstant(b, loc, t, 0), add);
  auto kType = cast<RankedTensorType>(sum.getType());
  Value mean = buildElementwise(
      b, loc, kType, {sum}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return arith::DivFOp::create(nb, l, a[0],
                                     scalarConstant(nb, l, t, count))
            .getResult();
      });
  Value centered = buildElementwise(
      b, loc, type, {x, mean}, [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::SubFOp::create(nb, l, a[0], a[1]).getResult();
      });
  Value sq = buildReduction(
      b, loc, centered, axes, true, scalarConstant(b, loc, t, 0),
      [](OpBuilder &nb, Location l, Value acc, Value v) {
        return arith::AddFOp::create(nb, l, acc,
                                     arith::MulFOp::create(nb, l, v, v))
            .getResult();
      });
  Value invStd = buildElementwise(
      b, loc, kType, {sq}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value var =
            arith::DivFOp::create(nb, l, a[0], scalarConstant(nb, l, t, count));
        var = arith::AddFOp::create(nb, l, var, scalarConstant(nb, l, t, eps));
        return arith::DivFOp::create(nb, l, scalarConstant(nb, l, t, 1),
                                     math::SqrtOp::create(nb, l, var))
            .getResult();
      });
  if (meanOut) {
    *meanOut = mean;
  }
  if (invStdOut) {
    *invStdOut = invStd;
  }
  return buildElementwise(
      b, loc, type, {centered, invStd},
      [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::MulFOp::create(nb, l, a[0], a[1]).getResult();
      });
}

struct LayerNormLowering final : OpConversionPattern<LayerNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto type = loweredAnyShapeType(op.getY().getType());
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    auto axes = llvm::to_vector(llvm::seq<int64_t>(axis, type.getRank()));
    // The generic variant: dynamic dims only before the normalized ones.
    if (!type.hasStaticShape() &&
        (llvm::any_of(type.getShape().drop_front(axis),
                      ShapedType::isDynamic) ||
         !isa<NoneType>(op.getMean().getType()) ||
         !isa<NoneType>(op.getInvStdDev().getType()))) {
      return rewriter.notifyMatchFailure(
          op, "dynamic normalized dims or statistics");
    }
    Value mean, invStd;
    Value n = normalize(rewriter, loc, adaptor.getX(), axes,
                        op.getEpsilon().convertToDouble(), &mean, &invStd);
    SmallVector<Value> inputs = {n, adaptor.getScale()};
    bool bias = !isNone(op.getB());
    if (bias) {
      inputs.push_back(adaptor.getB());
    }
    Value y = buildElementwise(
        rewriter, loc, type, inputs,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value v = arith::MulFOp::create(b, l, a[0], a[1]);
          return bias ? arith::AddFOp::create(b, l, v, a[2]).getResult() : v;
        });
    SmallVector<Value> results = {y};
    for (auto [result, value] : {std::make_pair(op.getMean(), mean),
                                 std::make_pair(op.getInvStdDev(), invStd)}) {
      results.push_back(isa<NoneType>(result.getType())
                            ? noneValue(rewriter, loc)
                            : reshapeTo(rewriter, loc, value,
                                        loweredTensorType(result.getType())));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct InstanceNormLowering final
    : OpConversionPattern<InstanceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InstanceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The generic variant: a dynamic batch (each instance is normalized
    // over its own static spatial dims).
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    Location loc = op.getLoc();
    auto type = loweredAnyShapeType(op.getOutput().getType());
    int64_t rank = type.getRank();
    auto axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
    Value n = normalize(rewriter, loc, adaptor.getInput(), axes,
                        op.getEpsilon().convertToDouble());
    auto perChannel = [&](Value v) {
      SmallVector<int64_t> shape = {
          cast<RankedTensorType>(v.getType()).getNumElements()};
      shape.append(rank - 2, 1);
      return reshapeTo(rewriter, loc, v,
                       RankedTensorType::get(shape, type.getElementType()));
    };
    Value y = buildElementwise(
        rewriter, loc, type,
        {n, perChannel(adaptor.getScale()), perChannel(adaptor.getB())},
        [](OpBuilder &b, Location l, ValueRange a) {
          return arith::AddFOp::create(
                     b, l, arith::MulFOp::create(b, l, a[0], a[1]), a[2])
              .getResult();
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// MeanVarianceNormalization: (x - mean) / (sqrt(var) + 1e-9) over `axes`
/// (default N, H, W). Adding 1e-18 under the root instead gives the same
/// 1e-9 for constant inputs and differs by far less than an ulp otherwise.
struct MeanVarianceNormLowering final
    : OpConversionPattern<MeanVarianceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MeanVarianceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto type = loweredTensorType(op.getY().getType());
    if (!isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(op, "float tensors only");
    }
    int64_t rank = type.getRank();
    SmallVector<int64_t> axes;
    if (auto attr = op.getAxes()) {
      for (int64_t a : *attr) {
        auto axis = normalizeAxis(a, rank);
        if (!axis) {
          return rewriter.notifyMatchFailure(op, "axis out of range");
        }
        axes.push_back(*axis);
      }
    } else if (rank == 4) {
      axes = {0, 2, 3};
    } else {
      return rewriter.notifyMatchFailure(op, "default axes need a 4-d input");
    }
    llvm::sort(axes);
    axes.erase(llvm::unique(axes), axes.end());
    rewriter.replaceOp(
        op, normalize(rewriter, op.getLoc(), adaptor.getX(), axes, 1e-18));
    return success();
  }
};

} // namespace

void populateReductionLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns
      .add<ReduceLowering<ReduceSumOp, Reduce::Sum>,
           ReduceLowering<ReduceMeanOp, Reduce::Mean>,
           ReduceLowering<ReduceMaxOp, Reduce::Max>,
           ReduceLowering<ReduceMinOp, Reduce::Min>,
           ReduceLowering<ReduceProdOp, Reduce::Prod>,
           ReduceLowering<ReduceL1Op, Reduce::L1>,
           ReduceLowering<ReduceL2Op, Reduce::L2>,
           ReduceLowering<ReduceLogSumOp, Reduce::LogSum>,
           ReduceLowering<ReduceLogSumExpOp, Reduce::LogSumExp>,
           ReduceLowering<ReduceSumSquareOp, Reduce::SumSquare>,
           ArgLowering<ArgMaxOp, true>, ArgLowering<ArgMinOp, false>,
           SoftmaxLowering<SoftmaxOp, SoftmaxKind::Softmax>,
           SoftmaxLowering<LogSoftmaxOp, SoftmaxKind::LogSoftmax>,
           SoftmaxLowering<HardmaxOp, SoftmaxKind::Hardmax>,
           GlobalPoolLowering<GlobalAveragePoolOp, Reduce::Mean>,
           GlobalPoolLowering<GlobalMaxPoolOp, Reduce::Max>,
           GlobalPoolLowering<GlobalLpPoolOp, Reduce::L2>, LayerNormLowering,
           InstanceNormLowering, MeanVarianceNormLowering>(
          converter, patterns.getContext());
}

} // namespace infer::lowering
