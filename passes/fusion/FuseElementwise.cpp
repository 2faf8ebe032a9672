//===- FuseElementwise.cpp - elementwise fusion around contractions -------===//

#include "passes/fusion/Passes.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/PairDot.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
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
