//===- LossLowering.cpp - NLL and softmax cross-entropy losses, LRN -------===//

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
          for (int64_t k = -before; k <= after; ++k) {
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

void populateLossLoweringPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<NllLowering, SoftmaxCrossEntropyLowering, LrnLowering>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
