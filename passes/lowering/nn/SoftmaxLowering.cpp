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
      Value max = buildReduction(
          rewriter, loc, x, {axis}, true,
          scalarConstant(rewriter, loc, t, -INFINITY),
          [](OpBuilder &b, Location l, Value acc, Value v) {
            return arith::MaximumFOp::create(b, l, acc, v).getResult();
          });
      // One-hot of the first maximum along the axis.
      Value result = buildIndexed(
          rewriter, loc, type,
          [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
            // First index j along the axis with x == max.
            SmallVector<Value> maxIdx(out);
            maxIdx[axis] = indexConstant(b, l, 0);
            Value m = tensor::ExtractOp::create(b, l, max, maxIdx);
            Value v = tensor::ExtractOp::create(b, l, x, out);
            Value isMax =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, v, m);
            // Is any earlier element also the maximum? Scan j < out[axis].
            Value earlier = arith::ConstantIntOp::create(b, l, 0, 1);
            for (int64_t j = 0; j < type.getDimSize(axis); ++j) {
              SmallVector<Value> at(out);
              at[axis] = indexConstant(b, l, j);
              Value e = tensor::ExtractOp::create(b, l, x, at);
              Value eq =
                  arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, e, m);
              Value before =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                        indexConstant(b, l, j), out[axis]);
              earlier = arith::OrIOp::create(
                  b, l, earlier, arith::AndIOp::create(b, l, eq, before));
            }
            Value notEarlier = arith::XOrIOp::create(
                b, l, earlier, arith::ConstantIntOp::create(b, l, 1, 1));
            Value hot = arith::AndIOp::create(b, l, isMax, notEarlier);
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
