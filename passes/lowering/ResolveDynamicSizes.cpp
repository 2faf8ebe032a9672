//===- ResolveDynamicSizes.cpp - sizes through the inputs' ----------------===//
//
// infer-resolve-dynamic-sizes (Passes.td): tensor.dim of results in terms
// of the sizes they were built from, one tensor.dim per (tensor, dim), and
// the comparisons and versions (RuntimeBroadcast.h) that then fold.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace infer::lowering {
#define GEN_PASS_DEF_RESOLVEDYNAMICSIZESPASS
#include "passes/lowering/Passes.h.inc"

namespace {

/// Replaces each tensor.dim by an earlier one of the same tensor and
/// constant dim that dominates it. Returns whether any was replaced.
bool mergeDims(func::FuncOp fn, DominanceInfo &dominance) {
  llvm::DenseMap<std::pair<Value, int64_t>, SmallVector<tensor::DimOp>> seen;
  SmallVector<std::pair<tensor::DimOp, tensor::DimOp>> replace;
  fn.walk([&](tensor::DimOp dim) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index) {
      return;
    }
    auto &earlier = seen[{dim.getSource(), *index}];
    for (tensor::DimOp other : earlier) {
      if (dominance.properlyDominates(other.getOperation(),
                                      dim.getOperation())) {
        replace.push_back({dim, other});
        return;
      }
    }
    earlier.push_back(dim);
  });
  for (auto [dim, other] : replace) {
    dim.getResult().replaceAllUsesWith(other.getResult());
    dim.erase();
  }
  return !replace.empty();
}

struct ResolveDynamicSizesPass final
    : impl::ResolveDynamicSizesPassBase<ResolveDynamicSizesPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    MLIRContext *ctx = &getContext();
    RewritePatternSet resolve(ctx);
    memref::populateResolveRankedShapedTypeResultDimsPatterns(resolve);
    FrozenRewritePatternSet resolvePatterns(std::move(resolve));
    RewritePatternSet fold(ctx);
    arith::CmpIOp::getCanonicalizationPatterns(fold, ctx);
    arith::SelectOp::getCanonicalizationPatterns(fold, ctx);
    arith::AndIOp::getCanonicalizationPatterns(fold, ctx);
    arith::OrIOp::getCanonicalizationPatterns(fold, ctx);
    scf::IfOp::getCanonicalizationPatterns(fold, ctx);
    tensor::DimOp::getCanonicalizationPatterns(fold, ctx);
    FrozenRewritePatternSet foldPatterns(std::move(fold));
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    // A folded version exposes its operand's sizes to the next round.
    for (int round = 0; round < 8; ++round) {
      (void)applyPatternsGreedily(fn, resolvePatterns, config);
      DominanceInfo dominance(fn);
      bool merged = mergeDims(fn, dominance);
      bool changed = false;
      (void)applyPatternsGreedily(fn, foldPatterns, config, &changed);
      if (!merged && !changed) {
        break;
      }
    }
  }
};

} // namespace
} // namespace infer::lowering
