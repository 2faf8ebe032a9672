//===- Passes.td - CPU target passes --------------------------------------===//

#ifndef INFER_TARGETS_CPU_PASSES_TD
#define INFER_TARGETS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
