//===- BufferPipelines.h - codegen stages every target shares ---*- C++ -*-===//
//
// After fusion (the `fuse` phase) every target bufferizes the same way, and the
// loop-based targets (CUDA kernels, HLS C++) turn linalg on buffers into loops
// the same way; the CPU and the CUDA emulator lower loops to the LLVM dialect
// the same way. Each stage is one function here so no target writes it
// out again.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_BUFFERPIPELINES_H
#define INFER_TARGETS_COMMON_BUFFERPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace infer::targets {

/// Fused linalg on tensors -> bufferized functions whose results are
/// out-parameters (inputs stay read-only): the start of every target's
/// code generation. With `outParams` false (dynamic shapes), the results
/// stay returned values the function allocates.
void buildBufferizePipeline(mlir::OpPassManager &pm, bool outParams = true);

struct LoopsOnBuffersOptions {
  /// Which loops of a linalg op end innermost: "reduction" (each thread
  /// reduces its own output) or "parallel" (pipelined HLS loops).
  std::string innermost = "reduction";
  /// scf.parallel loops (to map onto GPU threads) instead of scf.for.
  bool parallelLoops = false;
};

/// Linalg on buffers -> loops on plain buffers: reductions interchanged,
/// reshapes as views, copies as linalg.copy, linalg to loops, views folded
/// into the loads and stores. `beforeLoops` adds the target's own rewrites
/// of linalg ops on buffers (e.g. tiled GPU contractions) just before the
/// loops are formed.
void buildLoopsOnBuffersPipeline(
    mlir::OpPassManager &pm, const LoopsOnBuffersOptions &options,
    llvm::function_ref<void(mlir::OpPassManager &)> beforeLoops = {});

/// Loops on buffers (scf, affine, memref, arith, math) to the LLVM dialect:
/// the end of the CPU pipeline, also used to build the CUDA kernels for
/// the emulator. `barePointers`: memref arguments become plain pointers;
/// `genericAllocations`: allocations call the generic functions.
void buildLoopsToLLVMPipeline(mlir::OpPassManager &pm, bool barePointers,
                              bool genericAllocations, bool openmp);

/// Registers the passes of targets/common for infer-opt.
void registerCommonTargetPasses();

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_BUFFERPIPELINES_H
