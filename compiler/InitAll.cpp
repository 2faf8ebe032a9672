//===- InitAll.cpp - register infer's dialects, passes, pipelines ---------===//

#include "compiler/InitAll.h"
#include "compiler/pipelines/Pipelines.h"
#include "dialects/graph/IR/GraphDialect.h"
#include "passes/fusion/Passes.h"
#include "passes/graph/Passes.h"
#include "passes/loops/Passes.h"
#include "passes/lowering/Passes.h"
#include "targets/common/BufferPipelines.h"
#include "targets/common/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace infer {

void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::vector::VectorDialect, mlir::LLVM::LLVMDialect>();
  targets::registerAllTargets();
  for (targets::Target *target : targets::getRegisteredTargets()) {
    target->registerDialects(registry);
  }
  // The CPU pipeline inlines deallocation helpers.
  mlir::func::registerInlinerExtension(registry);
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
}

void registerAllPasses() {
  mlir::registerTransformsPasses();
  graph::registerGraphPasses();
  lowering::registerLoweringPasses();
  fusion::registerFusionPasses();
  loops::registerLoopsPasses();
  targets::registerCommonTargetPasses();
  targets::registerAllTargets();
  for (targets::Target *target : targets::getRegisteredTargets()) {
    target->registerPasses();
  }
  registerPipelines();
}

} // namespace infer
