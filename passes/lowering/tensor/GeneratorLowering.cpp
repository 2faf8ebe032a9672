//===- GeneratorLowering.cpp - ops that make tensors from sizes -----------===//
//
// ConstantOfShape, Range, Trilu and EyeLike: each element computed from its
// position (and scalars), no data read but a shape, bounds or a mask
// source. ConstantOfShape and Range size their results at run time in the
// generic variant.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

Value idx(OpBuilder &b, Location l, int64_t v) {
  return indexConstant(b, l, v);
}
Value subI(OpBuilder &b, Location l, Value x, Value y) {
  return arith::SubIOp::create(b, l, x, y);
}

struct ConstantOfShapeLowering final : StaticPattern<ConstantOfShapeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(ConstantOfShapeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getOutput());
    // Dynamic dims (the generic variant) are the shape operand's entries,
    // read at run time.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d)) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        continue;
      }
      Value v =
          tensor::ExtractOp::create(rewriter, op.getLoc(), adaptor.getInput(),
                                    ValueRange{idx(rewriter, op.getLoc(), d)});
      sizes.push_back(arith::IndexCastOp::create(rewriter, op.getLoc(),
                                                 rewriter.getIndexType(), v)
                          .getResult());
    }
    Value scalar;
    if (auto value = op.getValue()) {
      auto dense = dyn_cast<DenseElementsAttr>(*value);
      if (!dense) {
        return rewriter.notifyMatchFailure(op, "value must be dense");
      }
      Attribute element = dense.getValues<Attribute>()[0];
      if (auto i = dyn_cast<IntegerAttr>(element)) {
        element = IntegerAttr::get(type.getElementType(), i.getValue());
      }
      scalar = arith::ConstantOp::create(rewriter, op.getLoc(),
                                         cast<TypedAttr>(element));
    } else {
      scalar = scalarConstant(rewriter, op.getLoc(), type.getElementType(), 0);
    }
    rewriter.replaceOp(
        op, filledTensor(rewriter, op.getLoc(), type, scalar, sizes));
    return success();
  }
  bool supportsDynamic(ConstantOfShapeOp) const override { return true; }
};

struct RangeLowering final : StaticPattern<RangeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(RangeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getOutput());
    Value start = adaptor.getStart(), delta = adaptor.getDelta();
    Type element = type.getElementType();
    SmallVector<OpFoldResult> sizes;
    if (type.isDynamicDim(0)) {
      sizes.push_back(
          rangeLength(rewriter, op.getLoc(), start, adaptor.getLimit(), delta));
    }
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value s = tensor::ExtractOp::create(b, l, start, ValueRange{});
          Value d = tensor::ExtractOp::create(b, l, delta, ValueRange{});
          Value i = arith::IndexCastOp::create(b, l, b.getI64Type(), out[0]);
          if (isa<FloatType>(element)) {
            Value f = arith::SIToFPOp::create(b, l, element, i);
            return arith::AddFOp::create(b, l, s,
                                         arith::MulFOp::create(b, l, f, d))
                .getResult();
          }
          Value n = element.getIntOrFloatBitWidth() == 64
                        ? i
                        : arith::TruncIOp::create(b, l, element, i).getResult();
          return arith::AddIOp::create(b, l, s,
                                       arith::MulIOp::create(b, l, n, d))
              .getResult();
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
  /// The length known only at run time: max(ceil((limit - start) / delta), 0).
  bool supportsDynamic(RangeOp) const override { return true; }

private:
  static Value rangeLength(OpBuilder &b, Location l, Value start, Value limit,
                           Value delta) {
    Value s = tensor::ExtractOp::create(b, l, start, ValueRange{});
    Value e = tensor::ExtractOp::create(b, l, limit, ValueRange{});
    Value d = tensor::ExtractOp::create(b, l, delta, ValueRange{});
    Value count;
    if (isa<FloatType>(s.getType())) {
      Value q =
          arith::DivFOp::create(b, l, arith::SubFOp::create(b, l, e, s), d);
      q = math::CeilOp::create(b, l, q);
      q = arith::MaximumFOp::create(b, l, q,
                                    scalarConstant(b, l, q.getType(), 0));
      count = arith::FPToSIOp::create(b, l, b.getI64Type(), q);
    } else {
      Value diff = arith::SubIOp::create(b, l, e, s);
      Value q = arith::CeilDivSIOp::create(b, l, diff, d);
      q = arith::MaxSIOp::create(b, l, q, scalarConstant(b, l, q.getType(), 0));
      count = q;
    }
    return arith::IndexCastOp::create(b, l, b.getIndexType(), count);
  }
};

struct TriluLowering final : StaticPattern<TriluOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(TriluOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getOutput());
    bool upper = op.getUpper() != 0;
    Value input = adaptor.getInput();
    Value kTensor = isNone(op.getK()) ? Value() : adaptor.getK();
    int64_t rank = type.getRank();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value v = tensor::ExtractOp::create(b, l, input, out);
          Value diff = subI(b, l, out[rank - 1], out[rank - 2]);
          // k is a scalar (or 1-element) i64 tensor read at run time.
          Value k = idx(b, l, 0);
          if (kTensor) {
            auto kType = cast<RankedTensorType>(kTensor.getType());
            SmallVector<Value> at(kType.getRank(), idx(b, l, 0));
            k = arith::IndexCastOp::create(
                b, l, b.getIndexType(),
                tensor::ExtractOp::create(b, l, kTensor, at));
          }
          Value keep = arith::CmpIOp::create(b, l,
                                             upper ? arith::CmpIPredicate::sge
                                                   : arith::CmpIPredicate::sle,
                                             diff, k);
          return arith::SelectOp::create(
                     b, l, keep, v,
                     scalarConstant(b, l, type.getElementType(), 0))
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct EyeLikeLowering final : StaticPattern<EyeLikeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(EyeLikeOp op, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getOutput());
    int64_t k = op.getK();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value diag =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                    subI(b, l, out[1], out[0]), idx(b, l, k));
          Type e = type.getElementType();
          return arith::SelectOp::create(b, l, diag, scalarConstant(b, l, e, 1),
                                         scalarConstant(b, l, e, 0))
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// DepthToSpace and SpaceToDepth as index arithmetic.

} // namespace

void populateGeneratorLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<ConstantOfShapeLowering, RangeLowering, TriluLowering,
               EyeLikeLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
