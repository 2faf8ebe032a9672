//===- TrainingLowering.cpp - losses and Dropout -> linalg ----------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

/// Negative log-likelihood of `input` (N x C x d...) at class `target`
/// (N x d...), weighted, with `ignore_index` and a reduction.
Value buildNll(OpBuilder &b, Location loc, Value input, Value target,
               Value weight, std::optional<int64_t> ignoreIndex,
               StringRef reduction, RankedTensorType resultType) {
  auto inType = cast<RankedTensorType>(input.getType());
  auto targetType = cast<RankedTensorType>(target.getType());
  Type t = inType.getElementType();
  int64_t classes = inType.getDimSize(1);
  auto perElement = RankedTensorType::get(targetType.getShape(), t);
  // The class of one element, clamped so a bad label never reads out of
  // bounds, and whether it counts (not ignored).
  auto classOf = [&](OpBuilder &nb, Location l, ArrayRef<Value> at,
                     Value &counts) {
    Value label = tensor::ExtractOp::create(nb, l, target, at);
    Value i64 =
        label.getType().isInteger(64)
            ? label
            : arith::ExtSIOp::create(nb, l, nb.getI64Type(), label).getResult();
    counts = arith::ConstantIntOp::create(nb, l, 1, 1);
    if (ignoreIndex) {
      counts = arith::CmpIOp::create(
          nb, l, arith::CmpIPredicate::ne, i64,
          scalarConstant(nb, l, nb.getI64Type(), *ignoreIndex));
    }
    Value c = arith::IndexCastOp::create(nb, l, nb.getIndexType(), i64);
    Value zero = indexConstant(nb, l, 0),
          last = indexConstant(nb, l, classes - 1);
    c = arith::MaxSIOp::create(nb, l, c, zero);
    return arith::MinSIOp::create(nb, l, c, last).getResult();
  };
  auto weightOf = [&](OpBuilder &nb, Location l, ArrayRef<Value> at) {
    Value counts;
    Value c = classOf(nb, l, at, counts);
    Value w = weight ? tensor::ExtractOp::create(nb, l, weight, ValueRange{c})
                           .getResult()
                     : scalarConstant(nb, l, t, 1);
    return arith::SelectOp::create(nb, l, counts, w,
                                   scalarConstant(nb, l, t, 0))
        .getResult();
  };
  Value weights = buildIndexed(b, loc, perElement, weightOf);
  Value losses = buildIndexed(
      b, loc, perElement, [&](OpBuilder &nb, Location l, ArrayRef<Value> at) {
        Value counts;
        Value c = classOf(nb, l, at, counts);
        SmallVector<Value> in = {at[0], c};
        in.append(at.begin() + 1, at.end());
        Value x = tensor::ExtractOp::create(nb, l, input, in);
        Value w = weightOf(nb, l, at);
        return arith::NegFOp::create(nb, l, arith::MulFOp::create(nb, l, x, w))
            .getResult();
      });
  if (reduction == "none") {
    return losses;
  }
  auto all = llvm::to_vector(llvm::seq<int64_t>(0, perElement.getRank()));
  auto add = [](OpBuilder &nb, Location l, Value acc, Value v) {
    return arith::AddFOp::create(nb, l, acc, v).getResult();
  };
  Value sum = buildReduction(b, loc, losses, all, false,
                             scalarConstant(b, loc, t, 0), add);
  if (reduction == "sum") {
    return reshapeTo(b, loc, sum, resultType);
  }
  Value total = buildReduction(b, loc, weights, all, false,
                               scalarConstant(b, loc, t, 0), add);
  Value mean = buildElementwise(
      b, loc, cast<RankedTensorType>(sum.getType()), {sum, total},
      [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::DivFOp::create(nb, l, a[0], a[1]).getResult();
      });
  return reshapeTo(b, loc, mean, resultType);
}

struct NllLowering final : OpConversionPattern<NegativeLogLikelihoodLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NegativeLogLikelihoodLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Value weight = isNone(op.getWeight()) ? Value() : adaptor.getWeight();
    rewriter.replaceOp(op, buildNll(rewriter, op.getLoc(), adaptor.getInput(),
                                    adaptor.getTarget(), weight,
                                    op.getIgnoreIndex(), op.getReduction(),
                                    loweredTensorType(op.getLoss().getType())));
    return success();
  }
};

struct SoftmaxCrossEntropyLowering final
    : OpConversionPattern<SoftmaxCrossEntropyLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxCrossEntropyLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value logProb = buildSoftmax(rewriter, loc, adaptor.getScores(), 1, true);
    Value weight = isNone(op.getWeights()) ? Value() : adaptor.getWeights();
    Value loss = buildNll(rewriter, loc, logProb, adaptor.getLabels(), weight,
                          op.getIgnoreIndex(), op.getReduction(),
                          loweredTensorType(op.getOutput().getType()));
    Value second = isa<NoneType>(op.getLogProb().getType())
                       ? noneValue(rewriter, loc)
                       : logProb;
    rewriter.replaceOp(op, {loss, second});
    return success();
  }
};

/// A uniform value in [0, 1) from (seed, element index): SplitMix64's
/// finalizer over their sum, top 24 bits.
Value uniformAt(OpBuilder &b, Location l, Value index, uint64_t seed) {
  Type i64 = b.getI64Type();
  auto k = [&](uint64_t v) {
    return arith::ConstantOp::create(
               b, l, b.getIntegerAttr(i64, static_cast<int64_t>(v)))
        .getResult();
  };
  Value z = arith::IndexCastOp::create(b, l, i64, index);
  z = arith::AddIOp::create(
      b, l, arith::MulIOp::create(b, l, z, k(0x9E3779B97F4A7C15ull)), k(seed));
  auto mix = [&](unsigned shift, uint64_t factor) {
    z = arith::XOrIOp::create(b, l, z,
                              arith::ShRUIOp::create(b, l, z, k(shift)));
    if (factor) {
      z = arith::MulIOp::create(b, l, z, k(factor));
    }
  };
  mix(30, 0xBF58476D1CE4E5B9ull);
  mix(27, 0x94D049BB133111EBull);
  mix(31, 0);
  Value top = arith::ShRUIOp::create(b, l, z, k(40));
  Value f = arith::UIToFPOp::create(b, l, b.getF32Type(), top);
  return arith::MulFOp::create(
      b, l, f, scalarConstant(b, l, b.getF32Type(), 1.0 / (1 << 24)));
}

/// Dropout. At inference (no or a false training_mode) the identity with an
/// all-true mask. In training mode each element is kept when a uniform value
/// is at least the ratio and then scaled by 1 / (1 - ratio). The uniform
/// values are a fixed function of the seed attribute (0 when absent) and the
/// element's position, so a compiled model draws the same mask on every run.
/// Whether a Dropout may drop anything: in training mode, unless its ratio
/// is a constant 0 (which keeps every element and scales by 1).
bool mayDrop(DropoutOp op) {
  if (isNone(op.getTrainingMode())) {
    return false;
  }
  auto training = constantInts(op.getTrainingMode());
  if (training && (*training)[0] == 0) {
    return false;
  }
  if (isNone(op.getRatio())) {
    return true;
  }
  auto ratio = getConstantElements(op.getRatio());
  return !ratio || !isa<FloatType>(ratio.getElementType()) ||
         ratio.getNumElements() != 1 ||
         !(*ratio.getValues<APFloat>().begin()).isZero();
}

struct DropoutLowering final : StaticPattern<DropoutOp> {
  using StaticPattern::StaticPattern;
  /// The identity (with an all-true mask shaped like the data) takes any
  /// shape; drawing a mask needs static ones.
  bool supportsDynamic(DropoutOp op) const override { return !mayDrop(op); }
  LogicalResult lower(DropoutOp op, DropoutOp::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool maybeTraining = mayDrop(op);
    auto type = resultType(op.getOutput());
    bool wantMask = !isa<NoneType>(op.getMask().getType());
    if (!maybeTraining) {
      SmallVector<Value> results = {adaptor.getData()};
      if (wantMask) {
        auto maskType = resultType(op.getMask());
        results.push_back(filledTensor(
            rewriter, loc, maskType,
            scalarConstant(rewriter, loc, maskType.getElementType(), 1),
            ValueRange{adaptor.getData()}));
      } else {
        results.push_back(noneValue(rewriter, loc));
      }
      rewriter.replaceOp(op, results);
      return success();
    }
    if (!isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(
          op, "training-mode dropout of a non-float tensor");
    }
    Value data = adaptor.getData(), training = adaptor.getTrainingMode();
    Value ratio = isNone(op.getRatio()) ? Value() : adaptor.getRatio();
    uint64_t seed = op.getSeed() ? static_cast<uint64_t>(*op.getSeed()) : 0;
    ArrayRef<int64_t> shape = type.getShape();
    // keep = !training || uniform >= ratio, per element.
    auto keepAt = [&](OpBuilder &b, Location l, ArrayRef<Value> at,
                      Value &scale) {
      Type f32 = b.getF32Type();
      Value r =
          ratio
              ? castScalar(b, l,
                           tensor::ExtractOp::create(b, l, ratio, ValueRange{}),
                           f32, false, false)
              : scalarConstant(b, l, f32, 0.5);
      Value t = tensor::ExtractOp::create(b, l, training, ValueRange{});
      Value flat = indexConstant(b, l, 0);
      for (auto [i, size] : llvm::enumerate(shape)) {
        flat = arith::AddIOp::create(
            b, l, arith::MulIOp::create(b, l, flat, indexConstant(b, l, size)),
            at[i]);
      }
      Value drawn = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE,
                                          uniformAt(b, l, flat, seed), r);
      Value notTraining = arith::XOrIOp::create(
          b, l, t, arith::ConstantIntOp::create(b, l, 1, 1));
      Value one = scalarConstant(b, l, f32, 1);
      scale = arith::SelectOp::create(
          b, l, t,
          arith::DivFOp::create(b, l, one, arith::SubFOp::create(b, l, one, r)),
          one);
      return arith::OrIOp::create(b, l, notTraining, drawn).getResult();
    };
    Value y = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value scale;
          Value keep = keepAt(b, l, at, scale);
          Value x = tensor::ExtractOp::create(b, l, data, at);
          Type t = type.getElementType();
          Value scaled = arith::MulFOp::create(
              b, l, x, castScalar(b, l, scale, t, false, false));
          return arith::SelectOp::create(b, l, keep, scaled,
                                         scalarConstant(b, l, t, 0))
              .getResult();
        });
    SmallVector<Value> results = {y};
    if (wantMask) {
      results.push_back(
          buildIndexed(rewriter, loc, resultType(op.getMask()),
                       [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
                         Value scale;
                         return keepAt(b, l, at, scale);
                       }));
    } else {
      results.push_back(noneValue(rewriter, loc));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateTrainingLoweringPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<NllLowering, SoftmaxCrossEntropyLowering>(converter,
                                                         patterns.getContext());
  patterns.add<DropoutLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
