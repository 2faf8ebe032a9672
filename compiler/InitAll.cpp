//===- InitAll.cpp - register infer's dialects, passes, pipelines ---------===//

#include "compiler/InitAll.h"
#include "compiler/pipelines/Pipelines.h"
#include "dialects/graph/IR/GraphDialect.h"
#include "passes/graph/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace infer {

void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
}

void registerAllPasses() {
  mlir::registerTransformsPasses();
  graph::registerGraphPasses();
  registerPipelines();
}

} // namespace infer
