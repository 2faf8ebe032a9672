//===- FuseElementwise.cpp - elementwise fusion around contractions -------===//

#include "passes/fusion/Passes.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/PairDot.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::fusion {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "passes/fusion/Passes.h.inc"

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 2 ||
      linalgOp.getNumDpsInits() != 1 || linalgOp.getNumReductionLoops() == 0 ||
      !linalgOp.hasOnlyProjectedPermutations()) {
    return false;
  }
  return linalg::detail::isContractionBody(
             *linalgOp.getBlock(),
             [](Operation *mul, Operation *add) {
               return (isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add)) ||
                      (isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add));
             }) ||
         lowering::matchByteDot(linalgOp).has_value() ||
         lowering::matchPairDot(linalgOp);
}

namespace {

/// An elementwise generic whose one use is a reshape, with an input read
/// through constant-0 results on unit dims (a [1, c, 1, 1] scale broadcast
/// over a plane, (n, c, h, w) -> (n, c, 0, 0)): those dims dropped from
/// the input (a collapse_shape) and its map, which is then a projected
/// permutation, as folding the reshape into the generic by expansion
/// needs (an SE block's scale, then fused into the upsampling Add that
/// reads the plane through an expand_shape).
struct DropBroadcastUnitDims final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op->getResult(0).hasOneUse() ||
        !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
            *op->getResult(0).getUsers().begin())) {
      return failure();
    }
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    bool changed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      SmallVector<AffineExpr> kept;
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      SmallVector<int64_t> shape;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        pending.push_back(i);
        if (type && constant && constant.getValue() == 0 &&
            type.getDimSize(i) == 1) {
          continue;
        }
        kept.push_back(expr);
        groups.push_back(pending);
        pending.clear();
        shape.push_back(type ? type.getDimSize(i) : 0);
      }
      if (!type || kept.size() == map.getNumResults()) {
        inputs.push_back(input->get());
        maps.push_back(map);
        continue;
      }
      if (!groups.empty()) {
        groups.back().append(pending);
      }
      inputs.push_back(tensor::CollapseShapeOp::create(
          rewriter, op.getLoc(),
          RankedTensorType::get(shape, type.getElementType()), input->get(),
          groups));
      maps.push_back(
          AffineMap::get(map.getNumDims(), 0, kept, op.getContext()));
      changed = true;
    }
    if (!changed) {
      return failure();
    }
    maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getOutputs(),
        maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    rewriter.replaceOp(op, generic->getResults());
    return success();
  }
};

struct FuseElementwisePass final
    : impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto module = getOperation()->getParentOfType<ModuleOp>();
    bool windows = !module || !module->hasAttr("infer.windows_apart");
    linalg::ControlFusionFn control = [windows](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || !producer->hasOneUse() || isContraction(producer) ||
          isContraction(fused->getOwner())) {
        return false;
      }
      // Into a window read (a pooling op's input) only where the module
      // is not marked `infer.windows_apart` (Passes.td).
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      return windows || !consumer ||
             consumer.getMatchingIndexingMap(fused).isProjectedPermutation();
    };
    RewritePatternSet patterns(context);
    patterns.add<DropBroadcastUnitDims>(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::fusion
