//===- RuntimeShapeLowering.cpp - shape operands read at run time ---------===//
//
// In the generic variant (dynamic dims), an exporter's shape subgraph may
// stay a run-time value: Expand to Concat(Shape(x)[0], 2, 8, 8), Reshape to
// a shape with several unknown entries, Tile by run-time repeats. These
// patterns read the shape operand's elements at run time to size the
// result (ConstantOfShape does the same in ShapeLowering.cpp). With
// run-time checks on, a shape the op cannot take
// (Expand dims that do not broadcast, a Reshape that changes the element
// count) fails the run naming the ONNX node.
//
// Static results keep the lowerings in ShapeLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

Value idx(OpBuilder &b, Location l, int64_t v) {
  return indexConstant(b, l, v);
}

Value cmpEq(OpBuilder &b, Location l, Value x, Value y) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, y);
}

/// Element `i` of a 1-d integer tensor, as an index.
Value shapeEntry(OpBuilder &b, Location l, Value shape, int64_t i) {
  Value v = tensor::ExtractOp::create(b, l, shape, ValueRange{idx(b, l, i)});
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}

/// Matches ops of `Op` whose result has dynamic dims, all their tensors
/// ranked and of supported types.
template <typename Op>
struct RuntimeShapePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    auto type = loweredAnyShapeType(op->getResult(0).getType());
    if (!type || type.hasStaticShape()) {
      return rewriter.notifyMatchFailure(op, "static result");
    }
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    return lower(op, adaptor, type, rewriter);
  }
  virtual LogicalResult lower(Op op, typename Op::Adaptor adaptor,
                              RankedTensorType type,
                              ConversionPatternRewriter &rewriter) const = 0;
};

/// Expand: each result dim is the target's entry where the input's is 1
/// (or absent), else the input's.
struct RuntimeExpandLowering final : RuntimeShapePattern<ExpandOp> {
  using RuntimeShapePattern::RuntimeShapePattern;
  LogicalResult lower(ExpandOp op, OpAdaptor adaptor, RankedTensorType type,
                      ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    Value input = adaptor.getInput(), shape = adaptor.getShape();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank(), offset = rank - inType.getRank();
    auto shapeType = cast<RankedTensorType>(shape.getType());
    if (shapeType.isDynamicDim(0) || shapeType.getDimSize(0) > rank) {
      return rewriter.notifyMatchFailure(op, "shape length unknown");
    }
    int64_t shapeOffset = rank - shapeType.getDimSize(0);
    bool checks = checksEnabled(op);
    SmallVector<OpFoldResult> sizes;
    // Per input dim: whether it is broadcast (its size is 1) at run time.
    SmallVector<Value> broadcast(inType.getRank());
    for (int64_t d = 0; d < rank; ++d) {
      int64_t j = d - offset;
      std::optional<Value> target;
      if (d >= shapeOffset) {
        target = shapeEntry(rewriter, l, shape, d - shapeOffset);
      }
      if (j < 0) {
        sizes.push_back(*target);
        continue;
      }
      Value in = getValueOrCreateConstantIndexOp(
          rewriter, l, dimSize(rewriter, l, input, j));
      broadcast[j] = cmpEq(rewriter, l, in, idx(rewriter, l, 1));
      if (!target) {
        sizes.push_back(in);
        continue;
      }
      if (checks) {
        Value ok = arith::OrIOp::create(
            rewriter, l,
            arith::OrIOp::create(
                rewriter, l, broadcast[j],
                cmpEq(rewriter, l, *target, idx(rewriter, l, 1))),
            cmpEq(rewriter, l, in, *target));
        assertAtRunTime(rewriter, op, ok,
                        "the target shape does not broadcast with the input");
      }
      sizes.push_back(
          arith::SelectOp::create(rewriter, l, broadcast[j], *target, in)
              .getResult());
    }
    Value result = buildIndexed(
        rewriter, l, type,
        [&](OpBuilder &b, Location nl, ArrayRef<Value> out) {
          SmallVector<Value> in;
          for (int64_t j = 0; j < inType.getRank(); ++j) {
            in.push_back(arith::SelectOp::create(
                b, nl, broadcast[j], idx(b, nl, 0), out[j + offset]));
          }
          return tensor::ExtractOp::create(b, nl, input, in);
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Reshape to a shape with several entries known only at run time: 0
/// copies the input's dim (unless allowzero), -1 takes what is left of the
/// element count.
struct RuntimeReshapeLowering final : RuntimeShapePattern<ReshapeOp> {
  using RuntimeShapePattern::RuntimeShapePattern;
  LogicalResult lower(ReshapeOp op, OpAdaptor adaptor, RankedTensorType type,
                      ConversionPatternRewriter &rewriter) const override {
    if (type.getNumDynamicDims() <= 1) {
      return rewriter.notifyMatchFailure(op, "one dynamic dim: from the count");
    }
    Location l = op.getLoc();
    Value input = adaptor.getData(), shape = adaptor.getShape();
    auto inType = cast<RankedTensorType>(input.getType());
    auto shapeType = cast<RankedTensorType>(shape.getType());
    if (shapeType.isDynamicDim(0) ||
        shapeType.getDimSize(0) != type.getRank()) {
      return rewriter.notifyMatchFailure(op,
                                         "shape length differs from the rank");
    }
    Value count = idx(rewriter, l, 1);
    for (int64_t d = 0; d < inType.getRank(); ++d) {
      count = arith::MulIOp::create(
          rewriter, l, count,
          getValueOrCreateConstantIndexOp(rewriter, l,
                                          dimSize(rewriter, l, input, d)));
    }
    Value zero = idx(rewriter, l, 0), minusOne = idx(rewriter, l, -1);
    // Each entry with 0 resolved; -1 stays for now.
    SmallVector<Value> entries;
    Value known = idx(rewriter, l, 1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value v = shapeEntry(rewriter, l, shape, d);
      if (!op.getAllowzero() && d < inType.getRank()) {
        Value copy = getValueOrCreateConstantIndexOp(
            rewriter, l, dimSize(rewriter, l, input, d));
        v = arith::SelectOp::create(rewriter, l, cmpEq(rewriter, l, v, zero),
                                    copy, v);
      }
      entries.push_back(v);
      Value isInferred = cmpEq(rewriter, l, v, minusOne);
      known = arith::MulIOp::create(
          rewriter, l, known,
          arith::SelectOp::create(rewriter, l, isInferred, idx(rewriter, l, 1),
                                  v));
    }
    // Guard the division: a zero product only reshapes an empty tensor.
    Value safeKnown =
        arith::MaxSIOp::create(rewriter, l, known, idx(rewriter, l, 1));
    Value inferred = arith::DivUIOp::create(rewriter, l, count, safeKnown);
    SmallVector<Value> dims;
    Value total = idx(rewriter, l, 1);
    for (Value v : entries) {
      Value dim = arith::SelectOp::create(
          rewriter, l, cmpEq(rewriter, l, v, minusOne), inferred, v);
      total = arith::MulIOp::create(rewriter, l, total, dim);
      dims.push_back(
          arith::IndexCastOp::create(rewriter, l, rewriter.getI64Type(), dim));
    }
    if (checksEnabled(op)) {
      assertAtRunTime(
          rewriter, op, cmpEq(rewriter, l, total, count),
          "the target shape does not hold the input's element count");
    }
    auto dimsType =
        RankedTensorType::get({type.getRank()}, rewriter.getI64Type());
    Value target = tensor::FromElementsOp::create(rewriter, l, dimsType, dims);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, input, target);
    return success();
  }
};

/// Tile with run-time repeats (or a dynamic input).
struct RuntimeTileLowering final : RuntimeShapePattern<TileOp> {
  using RuntimeShapePattern::RuntimeShapePattern;
  LogicalResult lower(TileOp op, OpAdaptor adaptor, RankedTensorType type,
                      ConversionPatternRewriter &rewriter) const override {
    Location l = op.getLoc();
    Value input = adaptor.getInput();
    SmallVector<Value> inDims;
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value in = getValueOrCreateConstantIndexOp(
          rewriter, l, dimSize(rewriter, l, input, d));
      inDims.push_back(in);
      sizes.push_back(
          arith::MulIOp::create(
              rewriter, l, in, shapeEntry(rewriter, l, adaptor.getRepeats(), d))
              .getResult());
    }
    Value result = buildIndexed(
        rewriter, l, type,
        [&](OpBuilder &b, Location nl, ArrayRef<Value> out) {
          SmallVector<Value> in;
          for (auto [d, o] : llvm::enumerate(out)) {
            in.push_back(arith::RemUIOp::create(b, nl, o, inDims[d]));
          }
          return tensor::ExtractOp::create(b, nl, input, in);
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateRuntimeShapeLoweringPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns
      .add<RuntimeExpandLowering, RuntimeReshapeLowering, RuntimeTileLowering>(
          converter, patterns.getContext());
}

} // namespace infer::lowering
