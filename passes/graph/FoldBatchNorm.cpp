//===- FoldBatchNorm.cpp - BatchNormalization folded into its Conv --------===//
//
// An inference BatchNormalization whose input is a Conv with constant
// weights is a per-output-channel affine map of that Conv's result:
//
//   y = scale * (conv(x, W) + B - mean) / sqrt(var + eps) + beta
//     = conv(x, W * s) + (B - mean) * s + beta,  s = scale / sqrt(var + eps)
//
// so it folds into the Conv's weights and bias. The quantizer needs this
// before calibration: the integer convolution then carries the
// normalization, and the range it measures is the one the int8 result has.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/graph/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_FOLDBATCHNORMPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

namespace {

using namespace infer::graph;

struct FoldConvBatchNorm final : OpRewritePattern<BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getX().getDefiningOp<ConvOp>();
    if (!conv || !conv->hasOneUse() || bn.getTrainingMode() != 0 ||
        !bn.getRunningMean().use_empty() || !bn.getRunningVar().use_empty()) {
      return failure();
    }
    auto wType = dyn_cast<RankedTensorType>(conv.getW().getType());
    std::optional<SmallVector<float>> w = constantFloats(conv.getW());
    std::optional<SmallVector<float>> gamma = constantFloats(bn.getScale()),
                                      beta = constantFloats(bn.getB()),
                                      mean = constantFloats(bn.getInputMean()),
                                      var = constantFloats(bn.getInputVar());
    if (!wType || !w || !gamma || !beta || !mean || !var ||
        wType.getRank() < 1) {
      return failure();
    }
    size_t filters = wType.getDimSize(0);
    std::optional<SmallVector<float>> bias;
    if (isNone(conv.getB())) {
      bias = SmallVector<float>(filters, 0.0f);
    } else {
      bias = constantFloats(conv.getB());
    }
    if (!bias || bias->size() != filters || gamma->size() != filters ||
        beta->size() != filters || mean->size() != filters ||
        var->size() != filters) {
      return failure();
    }
    float eps = bn.getEpsilon().convertToFloat();
    size_t perFilter = w->size() / filters;
    for (size_t f = 0; f < filters; ++f) {
      float s = (*gamma)[f] / std::sqrt((*var)[f] + eps);
      for (size_t i = 0; i < perFilter; ++i) {
        (*w)[f * perFilter + i] *= s;
      }
      (*bias)[f] = ((*bias)[f] - (*mean)[f]) * s + (*beta)[f];
    }
    auto biasType =
        RankedTensorType::get({int64_t(filters)}, rewriter.getF32Type());
    Value newW = ConstantOp::create(
        rewriter, conv.getLoc(),
        makeConstantElements(wType, *w, "folded_batch_norm_weights"));
    Value newB = ConstantOp::create(
        rewriter, conv.getLoc(),
        makeConstantElements(biasType, *bias, "folded_batch_norm_bias"));
    rewriter.modifyOpInPlace(conv, [&] {
      conv->setOperand(1, newW);
      conv->setOperand(2, newB);
      conv->setLoc(FusedLoc::get(getContext(), {conv.getLoc(), bn.getLoc()}));
    });
    rewriter.replaceAllUsesWith(bn.getY(), conv.getY());
    rewriter.eraseOp(bn);
    return success();
  }
};

struct FoldBatchNormPass final
    : infer::graph::impl::FoldBatchNormPassBase<FoldBatchNormPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConvBatchNorm>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
