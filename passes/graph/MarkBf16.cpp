//===- MarkBf16.cpp - the layers --precision=bf16 computes in bfloat16 ----===//
//
// Marks every Conv (one group), MatMul by a constant 2-d B and Gemm by a
// constant B (A not transposed) of f32 with `infer.precision = "bf16"`,
// except the ONNX nodes the user keeps in f32. Grouped and depthwise
// convolutions stay f32: their reductions are a few taps per channel, too
// short for pairs to pay, and they are memory-bound.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "passes/graph/Passes.h"
#include "passes/graph/Precision.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_MARKBF16PASS
#include "passes/graph/Passes.h.inc"

namespace {

/// The ONNX node a location names (`loc("node"("OpType"))`), or "".
StringRef nodeNameOf(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty()) {
    loc = fused.getLocations().front();
  }
  auto name = dyn_cast<NameLoc>(loc);
  return name ? name.getName().strref() : StringRef();
}

bool isF32(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getElementType().isF32();
}

/// Whether the lowering can compute `op` over bf16 pairs.
bool takesBf16(Operation *op) {
  if (!isa<func::FuncOp>(op->getParentOp()) || !isF32(op->getOperand(0)) ||
      !isF32(op->getOperand(1)) || !isF32(op->getResult(0)) ||
      !matchPattern(op->getOperand(1), m_Constant())) {
    return false;
  }
  auto w = cast<RankedTensorType>(op->getOperand(1).getType());
  if (!w.hasStaticShape()) {
    return false;
  }
  if (auto conv = dyn_cast<ConvOp>(op)) {
    return conv.getGroup() == 1 && w.getRank() >= 3;
  }
  if (isa<MatMulOp>(op)) {
    return w.getRank() == 2;
  }
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    return !gemm.getTransA() && w.getRank() == 2;
  }
  return false;
}

struct MarkBf16Pass final : impl::MarkBf16PassBase<MarkBf16Pass> {
  using Base::Base;
  void runOnOperation() override {
    llvm::StringSet<> excluded;
    for (const std::string &name : exclude) {
      excluded.insert(name);
    }
    llvm::StringSet<> seen;
    Builder b(&getContext());
    getOperation().walk([&](Operation *op) {
      if (!isa<ConvOp, MatMulOp, GemmOp>(op)) {
        return;
      }
      StringRef name = nodeNameOf(op->getLoc());
      if (excluded.contains(name)) {
        seen.insert(name);
        return;
      }
      if (takesBf16(op)) {
        op->setAttr(kPrecisionMark, b.getStringAttr("bf16"));
      }
    });
    for (const std::string &name : exclude) {
      if (!seen.contains(name)) {
        getOperation().emitError()
            << "no Conv, MatMul or Gemm node named '" << name
            << "' to keep in f32 (--precision-exclude)";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace infer::graph
