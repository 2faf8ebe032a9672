//===- MulTwoToAdd.cpp - x * 2.0 as x + x, an example pass plugin --------===//
//
// Built out of tree against an installed infer and LLVM/MLIR 22, loaded by
// infer-opt and infer-compile with --load-pass-plugin (see
// docs/writing-a-pass.md in infer's sources).

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace example {

#define GEN_PASS_DEF_MULTWOTOADDPASS
#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

namespace {

/// Whether `value` is the constant 2.0 (a scalar or a splat).
bool isTwo(mlir::Value value) {
  mlir::FloatAttr scalar;
  if (mlir::matchPattern(value, mlir::m_Constant(&scalar))) {
    return scalar.getValue().isExactlyValue(2.0);
  }
  mlir::SplatElementsAttr splat;
  if (mlir::matchPattern(value, mlir::m_Constant(&splat)) &&
      llvm::isa<mlir::FloatType>(splat.getElementType())) {
    return splat.getSplatValue<llvm::APFloat>().isExactlyValue(2.0);
  }
  return false;
}

struct MulTwoToAdd final : mlir::OpRewritePattern<mlir::arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;

  mlir::LogicalResult
  matchAndRewrite(mlir::arith::MulFOp op,
                  mlir::PatternRewriter &rewriter) const override {
    mlir::Value other;
    if (isTwo(op.getRhs())) {
      other = op.getLhs();
    } else if (isTwo(op.getLhs())) {
      other = op.getRhs();
    } else {
      return rewriter.notifyMatchFailure(op, "no operand is 2.0");
    }
    rewriter.replaceOpWithNewOp<mlir::arith::AddFOp>(op, other, other,
                                                     op.getFastmath());
    return mlir::success();
  }
};

struct MulTwoToAddPass final : impl::MulTwoToAddPassBase<MulTwoToAddPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    patterns.add<MulTwoToAdd>(&getContext());
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace example

/// The plugin's entry point: MLIR's PassPlugin::load calls it, then the
/// registration callback, after which the pass exists by name.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "InferExamplePasses", LLVM_VERSION_STRING,
          [] { example::registerExamplePasses(); }};
}
