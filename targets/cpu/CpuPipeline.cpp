//===- CpuPipeline.cpp - linalg on tensors -> LLVM dialect ----------------===//

#include "targets/cpu/CpuTarget.h"
#include "targets/cpu/Passes.h"
#include "passes/fusion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer::cpu {

namespace {
struct CodegenPipelineOptions
    : public PassPipelineOptions<CodegenPipelineOptions> {
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width in bits (128, 256 or 512)"),
      llvm::cl::init(256)};
  Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the contraction kernels' panel loops on OpenMP "
                     "threads"),
      llvm::cl::init(false)};
  Option<bool> dynamicShapes{
      *this, "dynamic-shapes",
      llvm::cl::desc("The generic variant of a model with dynamic dims: "
                     "return allocated results, keep memref descriptors"),
      llvm::cl::init(false)};
};
} // namespace

void buildBufferizePipeline(OpPassManager &pm, bool outParams) {
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(fusion::createFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Recurrent layers yield each step's fresh state from their time loop.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));

  if (outParams) {
    bufferization::BufferResultsToOutParamsPassOptions options;
    options.hoistStaticAllocs = true;
    options.modifyPublicFunctions = true;
    pm.addPass(bufferization::createBufferResultsToOutParamsPass(options));
  }
  pm.addPass(createCanonicalizerPass());
}

void buildCpuCodegenPipeline(OpPassManager &pm, const CodegenOptions &options) {
  // Outputs of dynamic size are allocated by the code and handed to the
  // caller (the deallocation pipeline makes every returned buffer owned).
  buildBufferizePipeline(pm, /*outParams=*/!options.dynamicShapes);
  pm.addPass(createPlanWorkspacePass());
  pm.addPass(createChecksToStatusPass());
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

  ContractionKernelsPassOptions kernels;
  kernels.vectorBits = options.vectorBits;
  kernels.parallel = options.openmp;
  pm.addNestedPass<func::FuncOp>(createContractionKernelsPass(kernels));
  pm.addNestedPass<func::FuncOp>(createExpandCopiesPass());
  if (options.openmp) {
    pm.addNestedPass<func::FuncOp>(createParallelLoopsPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (options.openmp) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // The conversion wraps each parallel body in memref.alloca_scope, which
    // must stay one block; with no allocas inside, canonicalization inlines
    // it before the loops become branches.
    pm.addPass(createCanonicalizerPass());
  }
  buildLoopsToLLVMPipeline(pm, /*barePointers=*/!options.dynamicShapes,
                           /*genericAllocations=*/options.dynamicShapes,
                           options.openmp);
}

void buildLoopsToLLVMPipeline(OpPassManager &pm, bool barePointers,
                              bool genericAllocations, bool openmp) {
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 arithmetic in f32 (as every CPU without bf16 units does it), and
  // bf16 conversions as integer bit manipulation: no __truncsfbf2 from a
  // compiler runtime the artifact would need.
  math::MathExtendToSupportedTypesOptions mathBf16;
  mathBf16.extraTypeStrs = {};
  pm.addPass(math::createMathExtendToSupportedTypes(mathBf16));
  arith::ArithEmulateUnsupportedFloatsOptions arithBf16;
  arithBf16.sourceTypeStrs = {"bf16"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(arithBf16));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertVectorToLLVMPass());
  // The generic variant allocates through the runtime (DynamicEntry.cpp
  // defines the generic functions the allocations call).
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = genericAllocations;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = barePointers;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  if (openmp) {
    pm.addPass(createConvertOpenMPToLLVMPass());
  }
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void registerCpuPipelines() {
  registerCpuPasses();
  PassPipelineRegistration<CodegenPipelineOptions>(
      "cpu-codegen",
      "CPU code generation: linalg on tensors -> fused, bufferized loops and "
      "register-tiled contraction kernels -> LLVM dialect (bare-pointer "
      "entry points)",
      [](OpPassManager &pm, const CodegenPipelineOptions &options) {
        buildCpuCodegenPipeline(
            pm, CodegenOptions{options.vectorBits, options.openmp,
                               options.dynamicShapes});
      });
}

} // namespace infer::cpu
