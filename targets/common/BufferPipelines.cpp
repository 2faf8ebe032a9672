//===- BufferPipelines.cpp - code generation stages every target shares ---===//

#include "targets/common/BufferPipelines.h"
#include "passes/loops/Passes.h"
#include "targets/common/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer::targets {

void buildBufferizePipeline(OpPassManager &pm, bool outParams) {
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

void buildLoopsOnBuffersPipeline(
    OpPassManager &pm, const LoopsOnBuffersOptions &options,
    llvm::function_ref<void(OpPassManager &)> beforeLoops) {
  loops::InterchangeReductionsPassOptions interchange;
  interchange.innermost = options.innermost;
  pm.addNestedPass<func::FuncOp>(
      loops::createInterchangeReductionsPass(interchange));
  pm.addNestedPass<func::FuncOp>(loops::createReshapesToViewsPass());
  pm.addNestedPass<func::FuncOp>(createExpandCopiesPass());
  if (beforeLoops) {
    beforeLoops(pm);
  }
  if (options.parallelLoops) {
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  } else {
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  }
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
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
  // maxnumf/minnumf as LLVM's intrinsics, whose reductions LLVM vectorizes
  // (arith-expand would make compare-and-select chains of them).
  pm.addPass(createMinMaxNumToLLVMPass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // Math first: a libm function on a vector (erf in a GELU fused into a
  // vectorized epilogue) is called once per lane, through vector.extract
  // and vector.insert that the vector lowering below must still see.
  // log1p left to libm (log1pf), not log(1 + x): that loses every digit
  // of a tiny x (a Softplus of a large negative input would be 0).
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // The generic variant allocates through the runtime (DynamicEntry.cpp
  // defines the generic functions the allocations call).
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = genericAllocations;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
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

void registerCommonTargetPasses() { registerTargetCommonPasses(); }

} // namespace infer::targets
