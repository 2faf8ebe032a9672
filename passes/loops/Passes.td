//===- Passes.td - loop-level transforms shared by targets ----------------===//

#ifndef INFER_PASSES_LOOPS_PASSES_TD
#define INFER_PASSES_LOOPS_PASSES_TD

include "mlir/Pass/PassBase.td"

def InterchangeReductionsPass
    : Pass<"infer-interchange-reductions", "::mlir::func::FuncOp"> {
  let summary = "Reorders linalg loops: reductions innermost or just outside the last parallel loop";
  let description = [{
    Generalizes linalg ops with both parallel and reduction loops and
    permutes their iterators.

    `innermost=parallel` (HLS): the last parallel dimension goes innermost
    and the reductions just outside it. A pipelined loop that accumulates
    into one address (the `k` loop of a matmul) starts an iteration only
    when the previous addition is done, so its II is the adder's latency;
    with a parallel loop innermost every iteration writes a different
    element and the loop pipelines at II=1.

    `innermost=reduction` (GPU): the parallel dimensions go outside, in
    order, and the reductions inside them, so that every parallel
    iteration (a GPU thread) runs its reduction sequentially.
  }];
  let options = [
    Option<"innermost", "innermost", "std::string", "\"parallel\"",
           "What the innermost loops are: 'parallel' or 'reduction'">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ReshapesToViewsPass
    : Pass<"infer-reshapes-to-views", "::mlir::func::FuncOp"> {
  let summary = "Rewrites static memref.reshape as collapse_shape + expand_shape";
  let description = [{
    `memref.reshape` takes its shape from a buffer, so nothing folds it into
    the loads and stores that read through it. With static shapes it is a
    collapse to one dimension followed by an expansion to the result, two
    views that `fold-memref-alias-ops` removes, leaving plain arrays.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // INFER_PASSES_LOOPS_PASSES_TD
