//===- InterchangeReductions.cpp - parallel loop innermost for pipelining -===//

#include "targets/hls/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_INTERCHANGEREDUCTIONSPASS
#include "targets/hls/Passes.h.inc"

namespace {

/// The loop order that keeps the last parallel dimension innermost with
/// the reductions just outside it, as a list of old dimensions; empty when
/// the order is already right.
SmallVector<unsigned>
innermostParallelOrder(ArrayRef<utils::IteratorType> iterators) {
  int lastParallel = -1;
  for (int d = static_cast<int>(iterators.size()) - 1; d >= 0; --d) {
    if (iterators[d] == utils::IteratorType::parallel) {
      lastParallel = d;
      break;
    }
  }
  if (lastParallel < 0 ||
      lastParallel == static_cast<int>(iterators.size()) - 1) {
    return {};
  }
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iterators.size(); ++d) {
    if (iterators[d] == utils::IteratorType::parallel &&
        static_cast<int>(d) != lastParallel) {
      order.push_back(d);
    }
  }
  for (unsigned d = 0; d < iterators.size(); ++d) {
    if (iterators[d] == utils::IteratorType::reduction) {
      order.push_back(d);
    }
  }
  order.push_back(lastParallel);
  return order;
}

struct InterchangeReductionsPass final
    : impl::InterchangeReductionsPassBase<InterchangeReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0 && op.getNumParallelLoops() > 0 &&
          !innermostParallelOrder(op.getIteratorTypesArray()).empty()) {
        candidates.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) {
          continue; // stays in its order: correct, only slower
        }
        generic = *generalized;
      }
      SmallVector<unsigned> order =
          innermostParallelOrder(generic.getIteratorTypesArray());
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
} // namespace infer::hls
