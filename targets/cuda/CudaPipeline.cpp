//===- CudaPipeline.cpp - linalg on tensors -> kernels and launches -------===//

#include "targets/common/BufferPipelines.h"
#include "targets/common/Passes.h"
#include "targets/cuda/CudaTarget.h"
#include "targets/cuda/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace infer::cuda {

void buildCudaCodegenPipeline(OpPassManager &pm, const CudaOptions &options) {
  if (options.profile) {
    // The fused graph's kernels, numbered before codegen rewrites them.
    pm.addPass(targets::createMarkKernelsPass());
  }
  targets::buildBufferizePipeline(pm);

  // Loops on buffers: every parallel point a thread, reductions inside it;
  // large contractions become shared-memory tiled kernels, launched
  // directly.
  targets::LoopsOnBuffersOptions loopOptions;
  loopOptions.innermost = "reduction";
  loopOptions.parallelLoops = true;
  targets::buildLoopsOnBuffersPipeline(pm, loopOptions, [&](OpPassManager &pm) {
    if (options.tunedKernels) {
      TileContractionsPassOptions tile;
      tile.minBlocks = options.tileMinBlocks;
      pm.addNestedPass<func::FuncOp>(createTileContractionsPass(tile));
    }
  });
  pm.addPass(createCanonicalizerPass());

  // Kernels.
  MapParallelLoopsPassOptions map;
  map.blockSize = options.blockSize;
  map.warpReductions = options.tunedKernels;
  map.warpMinLength = options.warpMinLength;
  pm.addNestedPass<func::FuncOp>(createMapParallelLoopsPass(map));
  // One device allocation for every intermediate, planned by liveness once
  // the kernels are formed (a value one kernel recomputes from another's
  // buffer keeps that buffer alive).
  pm.addPass(targets::createPlanWorkspacePass());
  // Failed run-time checks write the run's status (a device int32 after
  // the workspace argument), which the runtime reads back after each run.
  pm.addPass(targets::createChecksToStatusPass());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  // Weights stay host-side globals: the kernels take them as arguments and
  // the runtime uploads them once at load.
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createMergeKernelModulesPass());
  if (options.profile) {
    pm.addPass(createProfileLaunchesPass());
  }
  if (!options.emulationLibrary.empty()) {
    EmulationLibraryPassOptions emulation;
    emulation.output = options.emulationLibrary;
    pm.addPass(createEmulationLibraryPass(emulation));
  }

  // PTX through NVVM, one image per chip. Math functions become libdevice
  // calls (exact fp32), linked from the CUDA toolkit when it is there.
  std::string libdevice = findLibdevice(options);
  for (const std::string &chip : options.chips) {
    GpuNVVMAttachTargetOptions target;
    target.chip = chip;
    target.features = "+ptx80";
    target.optLevel = 3;
    if (!libdevice.empty()) {
      target.linkLibs.push_back(libdevice);
    }
    pm.addPass(createGpuNVVMAttachTarget(target));
  }
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowerSubgroupReducePass());
  kernels.addPass(createSCFToControlFlowPass());
  // Both the loop collapsing and the strided metadata leave affine.apply.
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(arith::createArithExpandOpsPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
}
} // namespace infer::cuda
