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

    A kernel with few points and a long reduction per point (a Gemm at
    batch 1, softmax and LayerNorm rows, global pooling) gets one warp per
    point instead, when `warp-reductions` is on: each of the 32 lanes folds
    every 32nd element of the flattened reduction nest, `gpu.subgroup_reduce`
    combines the lanes, and lane 0 folds the total into the output. A block
    holds `block-size / 32` points (thread_y) of 32 lanes (thread_x). This
    applies when the nest's innermost body loads one f32 or i32 output
    element, combines it with add, mul, min, max, and or or, and stores it
    back, reading nothing the kernel writes; the kernel has at most
    `warp-max-points` points and each reduction at least `warp-min-length`
    elements. It changes the order of floating-point sums.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256", "Threads per block">,
    Option<"warpReductions", "warp-reductions", "bool", "true",
           "Map long reductions over few points as one warp per point">,
    Option<"warpMaxPoints", "warp-max-points", "int64_t", "32768",
           "Most points a warp-per-point kernel may have">,
    Option<"warpMinLength", "warp-min-length", "int64_t", "32",
           "Shortest reduction mapped as one warp per point">
  ];
  // Collapsing loops normalizes their bounds with affine.apply.
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def TileContractionsPass
    : Pass<"infer-cuda-tile-contractions", "::mlir::func::FuncOp"> {
  let summary = "Turns large contractions into shared-memory tiled kernels";
  let description = [{
    Each f32 linalg op on buffers of static shape that computes
    `out += in0 * in1` summed over its reduction dims (MatMul, Gemm, batched
    products, convolutions as implicit GEMMs) becomes one `gpu.launch`. The
    parallel dims read by both inputs are the batch (`block_z`); the others
    split into the x side (the input that holds the output's innermost dim,
    `block_x`) and the y side (`block_y`). A block of 16 x 16 threads
    computes a T x T tile of (y, x), each thread (T/16) x (T/16) outputs in
    registers; per step of 16 reduction elements the block stages both
    operand slices in workgroup memory (loaded along each operand's
    contiguous dim, padded by a column), with a barrier before and after the
    products. The sums are added to `out`, which holds the init.

    T is the largest of 64, 32 and 16 that still gives `min-blocks` blocks.
    Contractions with a side or a reduction shorter than 16, or too small
    for 16 x 16 tiles to give `min-blocks` blocks while at most
    `warp-max-points` outputs, are left to `infer-cuda-map-parallel-loops`.
    `min-blocks=1` tiles every contraction (tests use it to run the tiled
    kernels on small models).
  }];
  let options = [
    Option<"minBlocks", "min-blocks", "int64_t", "128",
           "Blocks a tile size must give (about the SMs of a large GPU)">,
    Option<"warpMaxPoints", "warp-max-points", "int64_t", "32768",
           "Small contractions up to this many outputs stay untiled">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def EmulationLibraryPass
    : Pass<"infer-cuda-emulation-library", "::mlir::ModuleOp"> {
  let summary = "Builds the GPU kernels for the host, for the CUDA emulator";
  let description = [{
    Copies every kernel of the (merged) GPU module into a host function,
    replaces thread and block ids, barriers, warp shuffles (after lowering
    warp reductions to shuffles) and workgroup buffers with calls into the
    emulator of `test/cuda-emulator`, lowers the copies like the CPU
    target's loops, adds `<kernel>__emu(void **params)` entry points, and
    links `output`, a shared library for this host. The module itself is
    left unchanged: the PTX is built from the same kernels. For tests on
    machines without a GPU (`infer-compile --gpu-emulation`).
  }];
  let options = [
    Option<"output", "output", "std::string", "\"\"",
           "Path of the shared library to write">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
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
    Option<"moduleName", "name", "std::string", "\"\"",
           "Symbol of the merged GPU module (default: <model>_kernels, "
           "the model named by infer.signature, else kernels)">
  ];
}

def LowerSubgroupReducePass
    : Pass<"infer-cuda-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lowers gpu.subgroup_reduce to warp shuffles";
  let description = [{
    Rewrites each `gpu.subgroup_reduce` of a 32-bit value as a butterfly of
    five `gpu.shuffle xor` steps over a 32-lane warp (MLIR's own
    patterns), which `convert-gpu-to-nvvm` turns into `shfl.sync.bfly`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def ProfileLaunchesPass
    : Pass<"infer-cuda-profile-launches", "::mlir::ModuleOp"> {
  let summary = "Describes each launch's kernel for --profile";
  let description = [{
    Runs after kernel outlining on a model compiled with `--profile` (its
    fused graph marked by `infer-mark-kernels`). Every `gpu.launch_func`
    of the host function is one segment: the runtime records a CUDA event
    before each launch and after the last, so a segment is the time from
    its launch to the next. Each launch belongs to the kernel marked in its
    location, else in its kernel's body; a launch with no mark (the fill
    that initialises an accumulator, a copy to an output) belongs to the
    next marked launch, or the previous one at the end. The kernels' ONNX
    nodes and FLOPs come from the marks (marks of kernels without a launch
    of their own, fused into another's body, count there); their bytes
    are the launches' distinct buffer arguments. The result is the module
    attribute `infer.profile` (targets/common/KernelTable.h), with offset 0:
    no stamps live in the workspace.
  }];
}

#endif // INFER_TARGETS_CUDA_PASSES_TD
