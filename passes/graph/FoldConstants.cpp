//===- FoldConstants.cpp - fold shape subgraphs into constants ------------===//

#include "passes/graph/Passes.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

namespace {

struct FoldConstantsPass final
    : infer::graph::impl::FoldConstantsPassBase<FoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Folding makes shape operands constant; propagation then makes more
    // shapes static, which lets Shape/Size fold in turn.
    for (int i = 0; i < maxIterations; ++i) {
      bool foldChanged = false;
      RewritePatternSet empty(&getContext());
      if (failed(applyPatternsGreedily(func, std::move(empty),
                                       GreedyRewriteConfig(), &foldChanged))) {
        // Not converging is not an error: the IR is still valid.
        foldChanged = false;
      }
      bool shapesChanged = false;
      if (failed(infer::graph::propagateShapes(func, shapesChanged))) {
        return signalPassFailure();
      }
      if (!foldChanged && !shapesChanged) {
        break;
      }
    }
  }
};

} // namespace
