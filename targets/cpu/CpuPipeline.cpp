//===- CpuPipeline.cpp - linalg on tensors -> LLVM dialect ----------------===//

#include "targets/common/BufferPipelines.h"
#include "targets/common/Passes.h"
#include "targets/cpu/CpuTarget.h"
#include "targets/cpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer::cpu {

void buildCpuCodegenPipeline(OpPassManager &pm, const CodegenOptions &options) {
  if (options.profile) {
    // The fused graph's kernels, numbered before codegen rewrites them.
    pm.addPass(targets::createMarkKernelsPass());
  }
  // 3x3 stride-1 convolutions as Winograd F(2x2, 3x3): transforms and 16
  // matmuls over the tiles (the other convolutions go on below).
  if (options.winograd) {
    pm.addNestedPass<func::FuncOp>(createWinogradPass());
  }
  // Convolutions read their input through the window map (no im2col
  // columns); the kernels below pack B straight from it.
  pm.addNestedPass<func::FuncOp>(createImplicitGemmPass());
  pm.addNestedPass<func::FuncOp>(createTransposeRhsPass());
  // Outputs of dynamic size are allocated by the code and handed to the
  // caller (the deallocation pipeline makes every returned buffer owned).
  targets::buildBufferizePipeline(pm, /*outParams=*/!options.dynamicShapes);
  // Padded inputs: the border filled, the interior written by the
  // producer itself; before planning, so the padded buffer's lifetime
  // starts at that producer.
  pm.addNestedPass<func::FuncOp>(createPadBordersPass());
  pm.addNestedPass<func::FuncOp>(createElideInteriorCopiesPass());
  // Outputs the kernels below will never write (a contraction's whose
  // consumer is its epilogue) take no workspace memory.
  UnplanFusedOutputsPassOptions unplanned;
  unplanned.vectorBits = options.vectorBits;
  unplanned.l2Bytes = options.l2Bytes;
  pm.addNestedPass<func::FuncOp>(createUnplanFusedOutputsPass(unplanned));
  targets::PlanWorkspacePassOptions planning;
  // The kernels write a fused consumer's output while the contraction
  // before it still reads its operands.
  planning.liveThroughNextOp = true;
  pm.addPass(targets::createPlanWorkspacePass(planning));
  pm.addPass(targets::createChecksToStatusPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  if (options.dynamicShapes) {
    // An output that is a view of an intermediate (a Flatten after a
    // pooling) is returned as a clone the caller owns: an alloc and a copy.
    pm.addPass(createConvertBufferizationToMemRefPass());
  }
  // Deallocations that need a run-time alias check call a generated
  // helper taking dynamically sized memrefs, which the bare-pointer
  // convention cannot lower: inline it into its callers instead.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());

  bool parallel = options.parallel != CodegenOptions::Parallel::None;
  // Winograd's transforms (with their consumers) before the contraction
  // kernels look for epilogues.
  WinogradKernelsPassOptions transforms;
  transforms.vectorBits = options.vectorBits;
  transforms.parallel = parallel;
  pm.addNestedPass<func::FuncOp>(createWinogradKernelsPass(transforms));
  ContractionKernelsPassOptions kernels;
  kernels.vectorBits = options.vectorBits;
  kernels.l2Bytes = options.l2Bytes;
  kernels.byteDotBits = options.byteDotBits;
  kernels.bf16DotBits = options.bf16DotBits;
  kernels.wordDot = options.wordDot;
  kernels.parallel = parallel;
  PackWeightsPassOptions packing;
  packing.vectorBits = options.vectorBits;
  pm.addPass(createPackWeightsPass(packing));
  // With the runtime's executor, one group of panels per thread.
  kernels.runtimeThreads =
      parallel && options.parallel == CodegenOptions::Parallel::Runtime;
  pm.addPass(createContractionKernelsPass(kernels));
  if (parallel) {
    pm.addNestedPass<func::FuncOp>(createFuseChannelLoopsPass());
  }
  // Weights the kernels now read packed are left unused.
  pm.addPass(createSymbolDCEPass());
  pm.addNestedPass<func::FuncOp>(targets::createExpandCopiesPass());
  WindowKernelsPassOptions windows;
  windows.vectorBits = options.vectorBits;
  windows.parallel = parallel;
  pm.addNestedPass<func::FuncOp>(createWindowKernelsPass(windows));
  pm.addNestedPass<func::FuncOp>(createWindowsInnermostPass());
  if (parallel) {
    pm.addNestedPass<func::FuncOp>(createParallelLoopsPass());
  }
  pm.addNestedPass<func::FuncOp>(targets::createContractReductionsPass());
  targets::ReassociateRowReductionsPassOptions rows;
  rows.vectorBits = options.vectorBits;
  pm.addNestedPass<func::FuncOp>(
      targets::createReassociateRowReductionsPass(rows));
  if (options.approximateMath) {
    pm.addNestedPass<func::FuncOp>(targets::createApproximateMathPass());
  }
  if (options.profile) {
    pm.addPass(createProfileStampsPass());
  }
  VectorCopiesPassOptions copies;
  copies.vectorBits = options.vectorBits;
  pm.addNestedPass<func::FuncOp>(createVectorCopiesPass(copies));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (parallel) {
    // Both ways to threads start from OpenMP's form of the loops.
    pm.addPass(createConvertSCFToOpenMPPass());
    // The conversion wraps each parallel body in memref.alloca_scope, which
    // must stay one block; with its allocas moved to the parallel region
    // (one per thread), canonicalization inlines it before the loops become
    // branches.
    pm.addNestedPass<func::FuncOp>(createHoistParallelAllocasPass());
    pm.addPass(createCanonicalizerPass());
  } else {
    // (Removes the unplanned outputs the kernels left unused.)
    pm.addPass(createCanonicalizerPass());
  }
  targets::buildLoopsToLLVMPipeline(
      pm, /*barePointers=*/!options.dynamicShapes,
      /*genericAllocations=*/options.dynamicShapes, parallel);
  if (options.parallel == CodegenOptions::Parallel::Runtime) {
    // Tasks for the caller's executor, not libomp calls.
    pm.addPass(createParallelToRuntimePass());
  }
}

} // namespace infer::cpu
