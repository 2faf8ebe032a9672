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

def ContractionKernelsPass : Pass<"infer-cpu-contraction-kernels", "::mlir::func::FuncOp"> {
  let summary = "Rewrites f32 contractions on buffers into register-tiled vector kernels";
  let description = [{
    Matmul-shaped `linalg` ops on memrefs (`C[.., m, n] += A[.., m, k] *
    B[.., k, n]`, any batch dims, `n` the unit-stride innermost dimension
    of B and C; convolutions reach this form through im2col) become loop
    nests over vectors: an MR x NR tile of C lives in registers while the
    reduction runs over a block of `k-block` rows of B, one FMA per row
    of the tile and vector of the row. NR is two vectors of `vector-bits`;
    MR is 6 (256 bits) or 8 (512 bits), so the accumulators, one row of B
    and a broadcast fit the register file. Remainder rows run as a smaller
    tile; remainder columns use masked loads and stores. With `parallel`
    the loop over column panels (each writes its own columns of C) is an
    `scf.parallel`. Shapes must be static; anything else is left to the
    loop lowering.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (128, 256 or 512)">,
    Option<"kBlock", "k-block", "int64_t", "256",
           "Reduction rows per block (a k-block x NR panel of B stays in L1)">,
    Option<"parallel", "parallel", "bool", "false",
           "Emit the loop over column panels as scf.parallel">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def PlanWorkspacePass : Pass<"infer-cpu-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Places static intermediate buffers in one workspace planned by liveness";
  let description = [{
    Runs after bufferization, before deallocation. First, a result that
    is computed into a buffer only to be copied into its output argument
    is computed into the output directly. Then each static
    `memref.alloc` in the entry function's top-level block (one that does
    not escape through a return or call) is live from its allocation to
    the last top-level op that uses it or a view of it. Buffers are packed
    first-fit by decreasing size into one byte buffer, 64-byte aligned, so
    buffers with disjoint lifetimes share memory; each allocation becomes
    a `memref.view` into it. The buffer is appended as the function's last
    argument (`memref<SIZExi8>`) and SIZE is recorded as the module
    attribute `infer.workspace_size`, which the artifact states in its
    header and ABI constant. Dynamic or escaping allocations, and those
    inside loops, keep their heap allocation.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def ChecksToStatusPass : Pass<"infer-cpu-checks-to-status", "::mlir::ModuleOp"> {
  let summary = "Turns run-time checks (cf.assert) into the run's error status";
  let description = [{
    Runs on buffers, after the workspace is planned. The entry function
    gets one more argument, `memref<i32>`, after the workspace: the run's
    status, which the caller sets to 0. Every `cf.assert` in it becomes a
    store of its number k (1, 2, ...) into the status when its condition
    is false, so a failed check ends as an error the runtime reports
    instead of a crash or a silent answer. The messages, in order, are the
    module attribute `infer.errors` (an array of strings; present, maybe
    empty, once the pass has run), which the artifact lists in its ABI
    constant: status k means `errors[k-1]`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def ParallelLoopsPass : Pass<"infer-cpu-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Splits large linalg ops on buffers into parallel chunks";
  let description = [{
    Every linalg op on buffers at the top level of the function with at
    least `min-iterations` iterations is tiled along its first parallel
    dimension of size 2 or more into about `chunks` tiles, as an
    `scf.parallel` (an OpenMP worksharing loop once converted). The tiled
    dimension being parallel, tiles write disjoint parts of the outputs.
    Ops nested in loops stay serial.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "16384",
           "Smallest iteration count worth a parallel region">,
    Option<"chunks", "chunks", "int64_t", "32",
           "Tiles to split the chosen dimension into">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
}

#endif // INFER_TARGETS_CPU_PASSES_TD
