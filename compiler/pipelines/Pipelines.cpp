//===- Pipelines.cpp - the compiler's phases as pass pipelines ------------===//

#include "compiler/pipelines/Pipelines.h"
#include "passes/graph/Passes.h"

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
  if (!options.shapes.empty() || options.batch > 0) {
    graph::SpecializeShapesPassOptions specialize;
    specialize.shapes = llvm::to_vector(options.shapes);
    specialize.batch = options.batch;
    fn.addPass(graph::createSpecializeShapesPass(specialize));
  }
  fn.addPass(graph::createPropagateShapesPass());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createFoldConstantsPass());
  fn.addPass(createCSEPass());
  fn.addPass(createCanonicalizerPass());
}

void registerPipelines() {
  PassPipelineRegistration<GraphOptOptions>(
      "graph-opt",
      "Graph-level optimization: shape specialization, propagation, "
      "canonicalization and constant folding",
      buildGraphOptPipeline);
}

} // namespace infer
