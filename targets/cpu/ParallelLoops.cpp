//===- ParallelLoops.cpp - outer loops of large linalg ops on threads
//------===//
//
// Each large linalg op on buffers at the top level of a function (the
// contraction kernels are already loops by now) is tiled along its first
// parallel dimension of size 2 or more into `chunks` pieces (and the next
// parallel ones when that one is too short), as an scf.parallel that the
// pipeline turns into tasks.
// Tiles write disjoint parts of the outputs, since the tiled dimension is
// parallel. Ops inside loops stay serial: a parallel region per iteration
// would cost more than it gains.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_PARALLELLOOPSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Iterations of plain arithmetic one iteration of `op` costs: 1, plus
/// kMathWeight per exp, log, tanh, erf, ... in its body (each an inline
/// polynomial of a dozen or more operations by the time it runs). A
/// Softmax's exponentials over 8 x 40 x 40 scores (PP-OCRv4 rec's
/// attention) are 12,800 iterations, under the plain threshold, and took
/// 0.05 ms on one thread of two.
int64_t iterationCost(linalg::LinalgOp op) {
  constexpr int64_t kMathWeight = 16;
  int64_t cost = 1;
  for (Operation &inner : op->getRegion(0).getOps()) {
    if (isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
            math::Log1pOp, math::Log2Op, math::Log10Op, math::TanhOp,
            math::ErfOp, math::PowFOp, math::SinOp, math::CosOp, math::AtanOp,
            math::Atan2Op>(inner)) {
      cost += kMathWeight;
    }
  }
  return cost;
}

struct ParallelLoopsPass final
    : impl::ParallelLoopsPassBase<ParallelLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<linalg::LinalgOp> ops;
    for (Block &block : fn.getBody()) {
      for (Operation &op : block) {
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
          ops.push_back(linalgOp);
        }
      }
    }
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        continue;
      }
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (llvm::any_of(ranges, ShapedType::isDynamic) ||
          ShapedType::getNumElements(ranges) * iterationCost(op) <
              minIterations) {
        continue;
      }
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      // The first parallel dim of size 2 or more; while it and the ones
      // tiled before give fewer than half the chunks (a model input's 3
      // channels copied into a padded buffer: 3 chunks, 2 and 1 on two
      // threads), the next one too, for about `chunks` tiles in all.
      SmallVector<int64_t> tiles(ranges.size(), 0);
      int64_t count = 1;
      for (unsigned d = 0; d < ranges.size() && 2 * count < chunks; ++d) {
        if (iterators[d] != utils::IteratorType::parallel || ranges[d] < 2) {
          continue;
        }
        int64_t wanted = llvm::divideCeil(chunks, count);
        tiles[d] = llvm::divideCeil(ranges[d], wanted);
        count *= llvm::divideCeil(ranges[d], tiles[d]);
      }
      if (count == 1) {
        continue;
      }
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(
          rewriter, op,
          linalg::LinalgTilingOptions().setTileSizes(tiles).setLoopType(
              linalg::LinalgTilingLoopType::ParallelLoops));
      if (succeeded(tiled)) {
        rewriter.eraseOp(op);
      }
    }
  }
};

} // namespace
} // namespace infer::cpu
