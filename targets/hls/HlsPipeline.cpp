//===- HlsPipeline.cpp - linalg on tensors -> loops with HLS directives ---===//

#include "targets/common/BufferPipelines.h"
#include "targets/hls/HlsTarget.h"
#include "targets/hls/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer::hls {

void buildHlsCodegenPipeline(OpPassManager &pm, const HlsOptions &options,
                             StringRef top) {
  // Recurrent layers that yield a fresh state buffer per step bufferize;
  // the prepare pass then reports that C arrays cannot be swapped so.
  targets::buildBufferizePipeline(pm);

  // Loops: reductions outside the innermost loop, copies as loops, views
  // folded into the loads and stores so every array is a plain C array.
  targets::LoopsOnBuffersOptions loopOptions;
  loopOptions.innermost = "parallel";
  targets::buildLoopsOnBuffersPipeline(pm, loopOptions);
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
  // Index arithmetic from folded views tests signs of loop counters that
  // cannot be negative: the ranges of the loops decide those tests.
  pm.addPass(arith::createIntRangeOptimizationsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // One function per layer, then the directives.
  OutlineLayersPassOptions outline;
  outline.top = top.str();
  pm.addPass(createOutlineLayersPass(outline));
  PipelineLoopsPassOptions pipeline;
  pipeline.clockNs = options.clockNs;
  pm.addNestedPass<func::FuncOp>(createPipelineLoopsPass(pipeline));
  UnrollLoopsPassOptions unroll;
  unroll.parallelism = options.parallelism;
  pm.addNestedPass<func::FuncOp>(createUnrollLoopsPass(unroll));
  pm.addPass(createArrayPartitionPass());
  pm.addPass(createDataflowPass());
  pm.addPass(createPrepareForEmissionPass());
}
} // namespace infer::hls
