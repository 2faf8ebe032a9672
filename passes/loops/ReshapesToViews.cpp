//===- ReshapesToViews.cpp - static memref.reshape -> two views -----------===//

#include "passes/loops/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::loops {
#define GEN_PASS_DEF_RESHAPESTOVIEWSPASS
#include "passes/loops/Passes.h.inc"

namespace {

bool isPlain(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity();
}

/// All dimensions into one group (none for rank 0).
SmallVector<ReassociationIndices> oneGroup(int64_t rank) {
  if (rank == 0) {
    return {};
  }
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d) {
    all.push_back(d);
  }
  return {all};
}

struct ReshapeToViews final : OpRewritePattern<memref::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto source = cast<MemRefType>(op.getSource().getType());
    auto result = cast<MemRefType>(op.getResult().getType());
    if (!isPlain(source) || !isPlain(result)) {
      return rewriter.notifyMatchFailure(op, "dynamic or strided");
    }
    Location loc = op.getLoc();
    auto flat =
        MemRefType::get({source.getNumElements()}, source.getElementType());
    Value value = op.getSource();
    if (source.getRank() == 0) {
      value = memref::ExpandShapeOp::create(
          rewriter, loc, flat, value, oneGroup(0),
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    } else if (source.getRank() > 1) {
      value = memref::CollapseShapeOp::create(rewriter, loc, value,
                                              oneGroup(source.getRank()));
    }
    if (result.getRank() == 0) {
      value =
          memref::CollapseShapeOp::create(rewriter, loc, value, oneGroup(0));
    } else if (result.getRank() > 1) {
      SmallVector<OpFoldResult> shape;
      for (int64_t dim : result.getShape()) {
        shape.push_back(rewriter.getIndexAttr(dim));
      }
      value = memref::ExpandShapeOp::create(rewriter, loc, result, value,
                                            oneGroup(result.getRank()), shape);
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct ReshapesToViewsPass final
    : impl::ReshapesToViewsPassBase<ReshapesToViewsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReshapeToViews>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::loops
