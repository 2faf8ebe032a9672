//===- ControlFlowLowering.cpp - If -> scf.if ------------------------------===//
//
// `graph.if` becomes `scf.if` on the condition's one element; its branch
// regions move over as they are (their ops are lowered by the same
// conversion) and `graph.yield` becomes `scf.yield`. Both branches must
// yield statically shaped tensors of the If's result types.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

struct IfLowering final : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    for (Type t : op.getResultTypes()) {
      auto ranked = dyn_cast<RankedTensorType>(t);
      if (!ranked || !ranked.hasStaticShape()) {
        return rewriter.notifyMatchFailure(
            op, "If results must be tensors of static shape");
      }
      types.push_back(loweredTensorType(t));
    }
    Location loc = op.getLoc();
    auto condType = cast<RankedTensorType>(adaptor.getCond().getType());
    SmallVector<Value> zeros(condType.getRank(),
                             arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value cond = tensor::ExtractOp::create(rewriter, loc, adaptor.getCond(), zeros);
    if (!cond.getType().isInteger(1)) {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getIntegerAttr(cond.getType(), 0));
      cond = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, cond,
                                   zero);
    }
    auto ifOp = scf::IfOp::create(rewriter, loc, types, cond,
                                  /*addThenBlock=*/false, /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// The terminator of a branch that now belongs to an scf.if.
struct IfYieldLowering final : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<scf::IfOp>(op->getParentOp())) {
      return rewriter.notifyMatchFailure(op, "not in an scf.if");
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

} // namespace

void populateControlFlowLoweringPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<IfLowering, IfYieldLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
