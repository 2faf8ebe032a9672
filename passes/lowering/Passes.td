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
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect"
  ];
}

#endif // INFER_PASSES_LOWERING_PASSES_TD
