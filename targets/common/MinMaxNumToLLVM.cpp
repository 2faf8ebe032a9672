//===- MinMaxNumToLLVM.cpp - maxnumf/minnumf as LLVM intrinsics ----------===//
//
// arith-expand would make compare-and-select chains of them, which LLVM's
// loop vectorizer does not recognize as reductions; llvm.maxnum/minnum
// reductions it vectorizes.
//
//===----------------------------------------------------------------------===//

#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_MINMAXNUMTOLLVMPASS
#include "targets/common/Passes.h.inc"

namespace {

/// f16/f32/f64, or a 1-D fixed vector of them: types the intrinsics take
/// as they are.
bool isLLVMFloat(Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable()) {
      return false;
    }
    type = vector.getElementType();
  }
  return type.isF16() || type.isF32() || type.isF64();
}

template <typename ArithOp, typename LLVMOp>
struct ToIntrinsic final : OpRewritePattern<ArithOp> {
  using OpRewritePattern<ArithOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ArithOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLLVMFloat(op.getType())) {
      return rewriter.notifyMatchFailure(op, "not an LLVM float type");
    }
    rewriter.replaceOpWithNewOp<LLVMOp>(op, op.getType(), op.getLhs(),
                                        op.getRhs());
    return success();
  }
};

struct MinMaxNumToLLVMPass final
    : impl::MinMaxNumToLLVMPassBase<MinMaxNumToLLVMPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ToIntrinsic<arith::MaxNumFOp, LLVM::MaxNumOp>,
                 ToIntrinsic<arith::MinNumFOp, LLVM::MinNumOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::targets
