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
    duplicated. In a module marked `infer.windows_apart` (by
    infer-prepare-entry, for targets that ask: the CPU) it is not fused
    into a window read either (a pooling op's input, indexed `o * s + k`):
    overlapping windows would compute it once per tap, and left apart it
    can be the epilogue of the convolution before it (a convolution's
    requantization fused into PP-OCR's average pool took 2-7 ms there
    instead of riding on the kernel's store).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // INFER_PASSES_FUSION_PASSES_TD
