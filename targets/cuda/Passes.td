//===- Passes.td - CUDA target passes -------------------------------------===//

#ifndef INFER_TARGETS_CUDA_PASSES_TD
#define INFER_TARGETS_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def MapParallelLoopsPass
    : Pass<"infer-cuda-map-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Maps the entry function's loop nests to GPU blocks and threads";
  let description = [{
    Every top-level `scf.parallel` of a public function becomes one kernel:
    its dimensions are collapsed into one, tiled by `block-size`, and the
    tile loop mapped to `block_x`, the loop inside a tile to `thread_x`
    (each thread runs one point, its reductions sequentially). Nested
    parallel loops run sequentially inside their thread. Straight-line
    code and sequential loops at the top level (a full reduction, a
    recurrent layer's time loop) are wrapped in a one-thread kernel, so
    nothing but launches, buffers and views is left for the host. Loop
    bounds must be static.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256", "Threads per block">
  ];
  // Collapsing loops normalizes their bounds with affine.apply.
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def MergeKernelModulesPass
    : Pass<"infer-cuda-merge-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Merges the outlined GPU modules into one";
  let description = [{
    Kernel outlining makes one `gpu.module` per kernel. This pass moves all
    kernels into the first, named `<name>` (renaming each kernel after its
    old module, so names stay unique), keeps one copy of each global, and
    points every `gpu.launch_func` at the merged module: one PTX image per
    GPU architecture, loaded once at run time.
  }];
  let options = [
    Option<"moduleName", "name", "std::string", "\"kernels\"",
           "Symbol of the merged GPU module">
  ];
}

#endif // INFER_TARGETS_CUDA_PASSES_TD
