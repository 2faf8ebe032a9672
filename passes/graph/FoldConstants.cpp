//===- FoldConstants.cpp - fold shape subgraphs into constants ------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "passes/graph/Passes.h"

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
      // Shape values that only read static dims of dynamic tensors (a
      // Gather of the channel count) are constants too.
      func.walk([&](Operation *op) {
        if (op->getNumResults() != 1 || isa<infer::graph::ConstantOp>(op)) {
          return;
        }
        Value result = op->getResult(0);
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !type.hasStaticShape() || result.use_empty()) {
          return;
        }
        auto values = infer::graph::getPartialInts(result);
        if (!values || llvm::is_contained(*values, ShapedType::kDynamic)) {
          return;
        }
        OpBuilder b(op);
        SmallVector<APInt> ints;
        for (int64_t v : *values) {
          unsigned width = type.getElementTypeBitWidth();
          ints.push_back(width == 1 ? APInt(1, v != 0)
                                    : APInt(width, v, /*isSigned=*/true));
        }
        auto constant = infer::graph::ConstantOp::create(
            b, op->getLoc(), DenseElementsAttr::get(type, ints));
        result.replaceAllUsesWith(constant);
        foldChanged = true;
      });
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
