//===- WindowsInnermost.cpp - window reductions inside the output loops ---===//
//
// A pooling op reaches the loops as one generic over (n, c, kh, kw, oh,
// ow): the window's taps outermost, so each tap sweeps the whole output
// plane, loading and storing every output element once per tap (a 3x3
// max pool: 9 loads and 9 stores of the output). With the small window
// dims moved after the output dims, LLVM unrolls the taps (constant trip
// counts), keeps the output element in a register across them and
// vectorizes the output row: one store per output element. Each output
// still takes its taps in the same order, so results do not change.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_WINDOWSINNERMOSTPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// The interchange that moves every reduction dim after every parallel
/// one (each group keeping its order), or an empty vector when `op` does
/// not qualify: a generic on buffers with static reduction dims of
/// `maxWindow` iterations in all at most, one of them before a parallel
/// dim.
SmallVector<unsigned> windowsLast(linalg::GenericOp op, int64_t maxWindow) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0) {
    return {};
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> parallel, reduction;
  int64_t window = 1;
  bool reductionBeforeParallel = false;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (linalg::isReductionIterator(type)) {
      if (ShapedType::isDynamic(ranges[d])) {
        return {};
      }
      window *= ranges[d];
      reduction.push_back(d);
    } else {
      reductionBeforeParallel |= !reduction.empty();
      parallel.push_back(d);
    }
  }
  if (!reductionBeforeParallel || window > maxWindow) {
    return {};
  }
  llvm::append_range(parallel, reduction);
  return parallel;
}

struct WindowsInnermostPass final
    : impl::WindowsInnermostPassBase<WindowsInnermostPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<unsigned>>> found;
    getOperation().walk([&](linalg::GenericOp op) {
      SmallVector<unsigned> order = windowsLast(op, maxWindow);
      if (!order.empty()) {
        found.emplace_back(op, std::move(order));
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, order] : found) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("could not move the window dims innermost");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace infer::cpu
