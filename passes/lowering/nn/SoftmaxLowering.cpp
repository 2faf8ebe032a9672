//===- SoftmaxLowering.cpp - the softmax family -> linalg -----------------===//
//
// The softmax family along one axis.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/reduction/ArgReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using scalar::add;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

template <typename Op, SoftmaxKind kind>
struct SoftmaxLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter,
                            /*allowDynamic=*/kind != SoftmaxKind::Hardmax))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    Type t = type.getElementType();
    int64_t axis =
        *normalizeAxis(op.getAxis(), std::max<int64_t>(type.getRank(), 1));
    if (kind == SoftmaxKind::Hardmax) {
      // One-hot of the first maximum along the axis.
      Value first = buildArgReduce(rewriter, loc, x, axis, /*isMax=*/true,
                                   /*last=*/false, /*isUnsigned=*/false);
      Value result = buildIndexed(
          rewriter, loc, type,
          [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
            SmallVector<Value> at(out);
            at[axis] = indexConstant(b, l, 0);
            Value best = tensor::ExtractOp::create(b, l, first, at);
            Value i =
                arith::IndexCastOp::create(b, l, b.getI64Type(), out[axis]);
            Value hot =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, i, best);
            return arith::SelectOp::create(b, l, hot,
                                           scalarConstant(b, l, t, 1),
                                           scalarConstant(b, l, t, 0))
                .getResult();
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    rewriter.replaceOp(op, buildSoftmax(rewriter, loc, x, axis,
                                        kind == SoftmaxKind::LogSoftmax));
    return success();
  }
};

} // namespace

void populateSoftmaxLoweringPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<SoftmaxLowering<SoftmaxOp, SoftmaxKind::Softmax>,
               SoftmaxLowering<LogSoftmaxOp, SoftmaxKind::LogSoftmax>,
               SoftmaxLowering<HardmaxOp, SoftmaxKind::Hardmax>>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
