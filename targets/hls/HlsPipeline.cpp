//===- HlsPipeline.cpp - linalg on tensors -> loops with HLS directives ---===//

#include "targets/hls/HlsTarget.h"
#include "targets/hls/Passes.h"
#include "targets/common/BufferPipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer::hls {

namespace {
struct CodegenPipelineOptions
    : public PassPipelineOptions<CodegenPipelineOptions> {
  Option<double> clockNs{*this, "clock-ns",
                         llvm::cl::desc("Target clock period in ns"),
                         llvm::cl::init(4.0)};
  Option<int64_t> parallelism{
      *this, "parallelism",
      llvm::cl::desc("Unroll factor of pipelined loops"), llvm::cl::init(1)};
  Option<std::string> top{*this, "top",
                          llvm::cl::desc("The model's function (default: "
                                         "the only public one)"),
                          llvm::cl::init("")};
};
} // namespace

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

void registerHlsPipelines() {
  registerHlsPasses();
  PassPipelineRegistration<CodegenPipelineOptions>(
      "hls-codegen",
      "HLS code generation: linalg on tensors -> loops on static arrays, one "
      "function per layer, PIPELINE/UNROLL/ARRAY_PARTITION/DATAFLOW chosen "
      "as attributes, checked for the C++ emitter",
      [](OpPassManager &pm, const CodegenPipelineOptions &options) {
        HlsOptions hls;
        hls.clockNs = options.clockNs;
        hls.parallelism = options.parallelism;
        buildHlsCodegenPipeline(pm, hls, options.top);
      });
}

} // namespace infer::hls
