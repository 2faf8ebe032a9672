//===- LowerSubgroupReduce.cpp - warp reductions as shuffles --------------===//

#include "targets/cuda/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_LOWERSUBGROUPREDUCEPASS
#include "targets/cuda/Passes.h.inc"

namespace {

struct LowerSubgroupReducePass final
    : impl::LowerSubgroupReducePassBase<LowerSubgroupReducePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, /*subgroupSize=*/32, /*shuffleBitwidth=*/32);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
    WalkResult left = getOperation().walk([](gpu::SubgroupReduceOp op) {
      op.emitError("a warp reduction of ")
          << op.getType() << " that cannot be lowered to shuffles";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted()) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::cuda
