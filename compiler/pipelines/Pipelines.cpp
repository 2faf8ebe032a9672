//===- Pipelines.cpp - the compiler's phases as pass pipelines ------------===//

#include "compiler/pipelines/Pipelines.h"
#include "passes/fusion/Passes.h"
#include "passes/graph/Passes.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace infer {

void buildGraphOptPipeline(OpPassManager &pm, const GraphOptOptions &options) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  if (!options.bindings.empty()) {
    graph::BindInputsPassOptions bind;
    bind.bindings = llvm::to_vector(options.bindings);
    fn.addPass(graph::createBindInputsPass(bind));
  }
  if (!options.shapes.empty() || options.batch > 0 ||
      !options.profiles.empty()) {
    graph::SpecializeShapesPassOptions specialize;
    specialize.shapes = llvm::to_vector(options.shapes);
    specialize.profiles = llvm::to_vector(options.profiles);
    specialize.batch = options.batch;
    fn.addPass(graph::createSpecializeShapesPass(specialize));
  }
  fn.addPass(graph::createPropagateShapesPass());
  // Before constant folding, which would dequantize small constant
  // weights into floats.
  fn.addPass(graph::createFoldQdqPass());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createFoldConstantsPass());
  fn.addPass(createCSEPass());
  fn.addPass(createCanonicalizerPass());
}

void buildLowerPipeline(OpPassManager &pm, const LowerOptions &options) {
  lowering::LowerGraphToLinalgPassOptions lower;
  lower.checks = options.checks;
  pm.addPass(lowering::createLowerGraphToLinalgPass(lower));
}

void buildFusePipeline(OpPassManager &pm) {
  // Run-time broadcast tests between sizes equal by construction fold
  // away (passes/lowering/RuntimeBroadcast.h).
  pm.addNestedPass<func::FuncOp>(lowering::createResolveDynamicSizesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(fusion::createFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
}

void registerPipelines() {
  PassPipelineRegistration<GraphOptOptions>(
      "graph-opt",
      "Graph-level optimization: shape specialization, propagation, "
      "canonicalization and constant folding",
      buildGraphOptPipeline);
  PassPipelineRegistration<LowerOptions>(
      "lower",
      "Lowering: graph ops -> linalg, tensor, arith and math on tensors",
      buildLowerPipeline);
  PassPipelineRegistration<>(
      "fuse", "Fusion on tensors: elementwise producers into consumers",
      buildFusePipeline);
}

} // namespace infer
