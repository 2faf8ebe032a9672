//===- SinkWeights.cpp - weights into the kernels that read them ----------===//

#include "targets/cuda/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_SINKWEIGHTSPASS
#include "targets/cuda/Passes.h.inc"

namespace {

/// A weight or a view of one (through views and constants only).
bool isWeight(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def) {
    return false;
  }
  if (isa<memref::GetGlobalOp>(def)) {
    return true;
  }
  if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp,
           memref::ReshapeOp, memref::CastOp>(def)) {
    return false;
  }
  return llvm::all_of(def->getOperands(), [](Value operand) {
    return isWeight(operand) || matchPattern(operand, m_Constant());
  });
}

/// Clones `value`'s definition (and what it needs) at `builder`.
Value cloneInto(OpBuilder &builder, Value value, IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value)) {
    return mapped;
  }
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands()) {
    cloneInto(builder, operand, mapping);
  }
  Operation *copy = builder.clone(*def, mapping);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

struct SinkWeightsPass final : impl::SinkWeightsPassBase<SinkWeightsPass> {
  void runOnOperation() override {
    getOperation().walk([](gpu::LaunchOp launch) {
      llvm::SetVector<Value> used;
      getUsedValuesDefinedAbove(launch.getBody(), used);
      OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
      IRMapping mapping;
      for (Value value : used) {
        if (!isWeight(value)) {
          continue;
        }
        Value inside = cloneInto(builder, value, mapping);
        replaceAllUsesInRegionWith(value, inside, launch.getBody());
      }
    });
  }
};

} // namespace
} // namespace infer::cuda
