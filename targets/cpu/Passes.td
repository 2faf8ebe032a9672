//===- Passes.td - CPU target passes --------------------------------------===//

#ifndef INFER_TARGETS_CPU_PASSES_TD
#define INFER_TARGETS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandCopiesPass : Pass<"infer-cpu-expand-copies", "::mlir::func::FuncOp"> {
  let summary = "Rewrites memref.copy into linalg.copy (loops, no runtime call)";
  let description = [{
    The LLVM lowering turns copies between non-contiguous memrefs into calls
    to `memrefCopy` from MLIR's runner utilities, which the artifact must not
    depend on. As `linalg.copy` they become plain loops instead.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // INFER_TARGETS_CPU_PASSES_TD
