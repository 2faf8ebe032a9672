//===- Passes.td - fusion on linalg tensors -------------------------------===//

#ifndef INFER_PASSES_FUSION_PASSES_TD
#define INFER_PASSES_FUSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwisePass : Pass<"infer-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuses elementwise producers and consumers; contractions stay roots";
  let description = [{
    Fuses chains of elementwise `linalg.generic` ops (and reshapes between
    them) into single loops, as upstream's elementwise fusion does, but
    never into or out of a contraction (a generic whose body is a
    multiply-accumulate over a reduction dimension). A contraction keeps
    its plain operands, so the target's register-tiled matmul kernels can
    take it: fusing an im2col copy into a convolution's matmul, say, would
    turn its contiguous operand into an indexed gather.

    A producer is fused only when it has a single use, so no work is
    duplicated.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // INFER_PASSES_FUSION_PASSES_TD
