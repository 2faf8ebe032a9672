//===- InterchangeReductions.cpp - parallel loop innermost for pipelining -===//

#include "passes/loops/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::loops {
#define GEN_PASS_DEF_INTERCHANGEREDUCTIONSPASS
#include "passes/loops/Passes.h.inc"

namespace {

/// The loop order with every reduction innermost, parallel dimensions in
/// their order outside; empty when the order is already right.
SmallVector<unsigned>
innermostReductionOrder(ArrayRef<utils::IteratorType> iterators) {
  SmallVector<unsigned> order;
  for (auto kind :
       {utils::IteratorType::parallel, utils::IteratorType::reduction}) {
    for (unsigned d = 0; d < iterators.size(); ++d) {
      if (iterators[d] == kind) {
        order.push_back(d);
      }
    }
  }
  if (llvm::equal(order, llvm::seq<unsigned>(0, iterators.size()))) {
    return {};
  }
  return order;
}

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
  using Base::Base;

  SmallVector<unsigned> order(ArrayRef<utils::IteratorType> iterators) {
    return innermost == "reduction" ? innermostReductionOrder(iterators)
                                    : innermostParallelOrder(iterators);
  }

  void runOnOperation() override {
    if (innermost != "parallel" && innermost != "reduction") {
      getOperation().emitError("innermost must be 'parallel' or "
                               "'reduction', not '")
          << innermost << "'";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0 && op.getNumParallelLoops() > 0 &&
          !order(op.getIteratorTypesArray()).empty()) {
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
      (void)linalg::interchangeGenericOp(
          rewriter, generic, order(generic.getIteratorTypesArray()));
    }
  }
};

} // namespace
} // namespace infer::loops
