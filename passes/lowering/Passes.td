//===- Passes.td - graph -> linalg lowering -------------------------------===//

#ifndef INFER_PASSES_LOWERING_PASSES_TD
#define INFER_PASSES_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerGraphToLinalgPass : Pass<"infer-lower-graph-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers graph ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every graph op into upstream ops on tensors with ONNX semantics:
    elementwise ops (with multidirectional broadcasting) become
    `linalg.generic`, contractions and windows (MatMul, Gemm, Conv, pooling)
    become `linalg.generic` contractions, reductions become reductions, and
    data movement becomes `tensor`/`linalg` ops. Unsigned element types
    become signless (the patterns pick unsigned arithmetic where it
    matters). Shapes must be static; an op that cannot be lowered is an
    error naming its ONNX node. Public functions' arguments are marked
    `bufferization.writable = false`: the caller owns the inputs, so no
    result is ever computed in place in them.

    With `checks` (the default), ops that index with run-time data (Gather,
    GatherElements, GatherND, ScatterElements, ScatterND) also get a
    `cf.assert` that every index is in range, whose message names the ONNX
    node; the lowered code clamps indices either way, so a bad index never
    reads or writes out of bounds. The CPU target turns the asserts into the
    run's error status (infer-checks-to-status); the HLS and CUDA
    targets lower without them.
  }];
  let options = [
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Assert at run time that data-dependent indices are in range">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def ResolveDynamicSizesPass : Pass<"infer-resolve-dynamic-sizes", "::mlir::func::FuncOp"> {
  let summary = "Expresses dynamic sizes through the inputs' and folds the "
                "run-time broadcast tests they settle";
  let description = [{
    In the generic variant each elementwise operand whose dynamic dims may
    broadcast at run time is versioned (`scf.if` on its sizes equalling the
    result's; passes/lowering/RuntimeBroadcast.h). Most of those tests
    compare sizes that are equal by construction (a residual Add of a
    value and its own transform). This pass rewrites `tensor.dim` of an
    op's result into the sizes the op was built from
    (ReifyRankedShapedTypeOpInterface), makes repeated `tensor.dim`s of one
    tensor one value, and folds the comparisons, `scf.if`s and selects that
    become constant. Unlike CSE it merges nothing else (two `tensor.empty`s
    of one shape stay two buffers).
  }];
  let dependentDialects = [
    "::mlir::tensor::TensorDialect", "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect"
  ];
}

#endif // INFER_PASSES_LOWERING_PASSES_TD
