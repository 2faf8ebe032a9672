//===- NormalizationLowering.cpp - normalizations -> linalg ---------------===//
//
// BatchNormalization (inference), LayerNormalization,
// InstanceNormalization, MeanVarianceNormalization and LRN (local
// response normalization).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using mlir::utils::IteratorType;
using scalar::add;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;

struct BatchNormLowering final : OpConversionPattern<BatchNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Inference mode is elementwise: any dynamic dims of X.
    if (failed(checkTensors(op, rewriter,
                            /*allowDynamic=*/op.getTrainingMode() == 0))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    int64_t rank = yType.getRank();
    bool training = op.getTrainingMode() != 0;
    if (training && (rank < 2 || !isa<FloatType>(element))) {
      return rewriter.notifyMatchFailure(
          op, "training mode needs float N x C x ...");
    }
    // Training mode normalizes with the batch's own mean and (population)
    // variance over every axis but the channels.
    Value mean = adaptor.getInputMean(), var = adaptor.getInputVar();
    if (training) {
      SmallVector<int64_t> axes = {0};
      int64_t count = yType.getDimSize(0);
      for (int64_t d = 2; d < rank; ++d) {
        axes.push_back(d);
        count *= yType.getDimSize(d);
      }
      auto sum = [&](Value v, bool square) {
        return buildReduction(
            rewriter, loc, v, axes, /*keepDims=*/true,
            scalarConstant(rewriter, loc, element, 0),
            [square](OpBuilder &b, Location l, Value acc, Value e) {
              if (square) {
                e = arith::MulFOp::create(b, l, e, e);
              }
              return arith::AddFOp::create(b, l, acc, e).getResult();
            });
      };
      auto divide = [&](Value v) {
        return buildElementwise(
            rewriter, loc, cast<RankedTensorType>(v.getType()), {v},
            [&](OpBuilder &b, Location l, ValueRange a) {
              return arith::DivFOp::create(b, l, a[0],
                                           scalarConstant(b, l, element, count))
                  .getResult();
            });
      };
      mean = divide(sum(adaptor.getX(), false));
      Value centered = buildElementwise(
          rewriter, loc, yType, {adaptor.getX(), mean},
          [](OpBuilder &b, Location l, ValueRange a) {
            return arith::SubFOp::create(b, l, a[0], a[1]).getResult();
          });
      var = divide(sum(centered, true));
    }
    auto perChannel = [&](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> shape = {type.getNumElements()};
      shape.append(std::max<int64_t>(rank - 2, 0), 1);
      return reshapeTo(rewriter, loc, v,
                       RankedTensorType::get(shape, type.getElementType()));
    };
    double eps = op.getEpsilon().convertToDouble();
    Value y = buildElementwise(
        rewriter, loc, yType,
        {adaptor.getX(), perChannel(adaptor.getScale()),
         perChannel(adaptor.getB()), perChannel(mean), perChannel(var)},
        [&](OpBuilder &b, Location l, ValueRange a) {
          auto cast = [&](Value v) {
            return castScalar(b, l, v, element, false, false);
          };
          Value centered = arith::SubFOp::create(b, l, a[0], cast(a[3]));
          Value var = arith::AddFOp::create(b, l, cast(a[4]),
                                            scalarConstant(b, l, element, eps));
          Value norm = arith::DivFOp::create(b, l, centered,
                                             math::SqrtOp::create(b, l, var));
          return arith::AddFOp::create(
                     b, l, arith::MulFOp::create(b, l, norm, cast(a[1])),
                     cast(a[2]))
              .getResult();
        });
    // Running statistics: input * momentum + batch * (1 - momentum).
    double momentum = op.getMomentum().convertToDouble();
    SmallVector<Value> results = {y};
    for (auto [result, input, batch] :
         {std::make_tuple(op.getRunningMean(), adaptor.getInputMean(), mean),
          std::make_tuple(op.getRunningVar(), adaptor.getInputVar(), var)}) {
      if (isa<NoneType>(result.getType())) {
        results.push_back(noneValue(rewriter, loc));
        continue;
      }
      if (!training) {
        return rewriter.notifyMatchFailure(
            op, "running statistics outside training mode");
      }
      auto type = loweredTensorType(result.getType());
      results.push_back(buildElementwise(
          rewriter, loc, type, {input, reshapeTo(rewriter, loc, batch, type)},
          [&](OpBuilder &b, Location l, ValueRange a) {
            Type t = type.getElementType();
            return arith::AddFOp::create(
                       b, l,
                       arith::MulFOp::create(b, l, a[0],
                                             scalarConstant(b, l, t, momentum)),
                       arith::MulFOp::create(
                           b, l, castScalar(b, l, a[1], t, false, false),
                           scalarConstant(b, l, t, 1 - momentum)))
                .getResult();
          }));
    }
    rewriter.replaceOp(op, results);
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
    // (X may be less static than a result the model declared.)
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    if ((!type.hasStaticShape() || !xType.hasStaticShape()) &&
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

struct LrnLowering final : OpConversionPattern<LRNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Value x = adaptor.getX();
    auto type = cast<RankedTensorType>(x.getType());
    Type t = type.getElementType();
    int64_t size = op.getSize();
    int64_t channels = type.getDimSize(1);
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    Value y = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value sum = scalarConstant(b, l, t, 0);
          Value c = at[1];
          // Offsets past C - 1 either way reach no channel (a hostile size
          // would unroll 2^31 of them).
          for (int64_t k = std::max(-before, 1 - channels),
                       last = std::min(after, channels - 1);
               k <= last; ++k) {
            // Channels outside [0, C) contribute nothing: read a clamped one
            // and select zero.
            Value ck = arith::AddIOp::create(b, l, c, indexConstant(b, l, k));
            Value inside = arith::AndIOp::create(
                b, l,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, ck,
                                      indexConstant(b, l, 0)),
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, ck,
                                      indexConstant(b, l, channels)));
            Value clamped = arith::MinSIOp::create(
                b, l, arith::MaxSIOp::create(b, l, ck, indexConstant(b, l, 0)),
                indexConstant(b, l, channels - 1));
            SmallVector<Value> pos(at);
            pos[1] = clamped;
            Value v = tensor::ExtractOp::create(b, l, x, pos);
            Value sq = arith::MulFOp::create(b, l, v, v);
            sum = arith::AddFOp::create(
                b, l, sum,
                arith::SelectOp::create(b, l, inside, sq,
                                        scalarConstant(b, l, t, 0)));
          }
          Value scaled = arith::AddFOp::create(
              b, l, scalarConstant(b, l, t, bias),
              arith::MulFOp::create(b, l, sum,
                                    scalarConstant(b, l, t, alpha / size)));
          Value denom =
              math::PowFOp::create(b, l, scaled, scalarConstant(b, l, t, beta));
          return arith::DivFOp::create(
                     b, l, tensor::ExtractOp::create(b, l, x, at), denom)
              .getResult();
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void populateNormalizationLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<BatchNormLowering, LayerNormLowering, InstanceNormLowering,
               MeanVarianceNormLowering, LrnLowering>(converter,
                                                      patterns.getContext());
}

} // namespace infer::lowering
