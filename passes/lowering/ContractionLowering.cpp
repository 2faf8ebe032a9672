//===- ContractionLowering.cpp - matmul, gemm, conv, pooling -> linalg ----===//
//
// Contractions and windows become `linalg.generic` ops whose indexing maps
// carry broadcasting, transposition, groups, strides and dilations, so the
// tiling and vectorization passes see one structured op per layer.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using mlir::utils::IteratorType;
using scalar::add;
using scalar::mul;

/// out[batch..., m, n] += a[..., m, k] * b[..., k, n], batch dims
/// broadcast. `a` and `b` have rank >= 2; `resultType` is the output.
} // namespace

Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  RankedTensorType resultType, bool transA, bool transB) {
  MLIRContext *ctx = b.getContext();
  auto aType = cast<RankedTensorType>(lhs.getType());
  auto bType = cast<RankedTensorType>(rhs.getType());
  int64_t rank = resultType.getRank();
  int64_t batch = rank - 2;
  // Loop order batch..., m, k, n: the innermost loop walks rows of B and
  // of the output contiguously, which LLVM vectorizes.
  int64_t dims = rank + 1;
  AffineExpr m = getAffineDimExpr(batch, ctx),
             k = getAffineDimExpr(batch + 1, ctx),
             n = getAffineDimExpr(batch + 2, ctx);
  auto operandMap = [&](RankedTensorType type, AffineExpr row, AffineExpr col) {
    SmallVector<AffineExpr> exprs;
    int64_t opBatch = type.getRank() - 2;
    for (int64_t i = 0; i < opBatch; ++i) {
      int64_t d = batch - opBatch + i;
      exprs.push_back(type.getDimSize(i) == 1 && resultType.getDimSize(d) != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(d, ctx));
    }
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(dims, 0, exprs, ctx);
  };
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < batch; ++i) {
    outExprs.push_back(getAffineDimExpr(i, ctx));
  }
  outExprs.push_back(m);
  outExprs.push_back(n);
  SmallVector<AffineMap> maps = {
      transA ? operandMap(aType, k, m) : operandMap(aType, m, k),
      transB ? operandMap(bType, n, k) : operandMap(bType, k, n),
      AffineMap::get(dims, 0, outExprs, ctx)};
  SmallVector<IteratorType> iterators(batch + 1, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  iterators.push_back(IteratorType::parallel);
  Type element = resultType.getElementType();
  // Dynamic result dims: batch dims from an operand dynamic there, m from
  // the lhs, n from the rhs.
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < batch; ++i) {
    OpFoldResult size = b.getIndexAttr(resultType.getDimSize(i));
    if (resultType.isDynamicDim(i)) {
      for (auto [v, type] : {std::pair(lhs, aType), std::pair(rhs, bType)}) {
        int64_t p = i - (batch - (type.getRank() - 2));
        if (p >= 0 && type.isDynamicDim(p)) {
          size = dimSize(b, loc, v, p);
          break;
        }
      }
    }
    sizes.push_back(size);
  }
  sizes.push_back(dimSize(b, loc, lhs, aType.getRank() - (transA ? 1 : 2)));
  sizes.push_back(dimSize(b, loc, rhs, bType.getRank() - (transB ? 2 : 1)));
  Value init = filledTensor(b, loc, resultType,
                            scalarConstant(b, loc, element, 0), sizes);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value x = args[0], y = args[1];
        if (x.getType() != element) {
          x = castScalar(nb, nl, x, element, false, false);
        }
        if (y.getType() != element) {
          y = castScalar(nb, nl, y, element, false, false);
        }
        linalg::YieldOp::create(nb, nl,
                                add(nb, nl, args[2], mul(nb, nl, x, y)));
      });
  return generic.getResult(0);
}

namespace {

/// Whether every dynamic batch dim of a matmul result of `type` has an
/// operand dynamic at its (right-aligned) batch position.
bool batchDimsSized(RankedTensorType type,
                    ArrayRef<RankedTensorType> operands) {
  int64_t batch = type.getRank() - 2;
  for (int64_t i = 0; i < batch; ++i) {
    if (type.isDynamicDim(i) &&
        llvm::none_of(operands, [&](RankedTensorType t) {
          int64_t p = i - (batch - (t.getRank() - 2));
          return p >= 0 && t.isDynamicDim(p);
        })) {
      return false;
    }
  }
  return true;
}

struct MatMulLowering final : OpConversionPattern<MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value a = adaptor.getA(), b = adaptor.getB();
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(b.getType());
    auto resultType = loweredAnyShapeType(op.getY().getType());
    if (!resultType.hasStaticShape() &&
        (aType.getRank() < 2 || bType.getRank() < 2 ||
         !batchDimsSized(resultType, {aType, bType}))) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims with a vector operand");
    }
    // numpy: 1-d operands become matrices, and the extra dim is dropped.
    if (aType.getRank() == 1) {
      a = reshapeTo(rewriter, loc, a,
                    RankedTensorType::get({1, aType.getDimSize(0)},
                                          aType.getElementType()));
    }
    if (bType.getRank() == 1) {
      b = reshapeTo(rewriter, loc, b,
                    RankedTensorType::get({bType.getDimSize(0), 1},
                                          bType.getElementType()));
    }
    aType = cast<RankedTensorType>(a.getType());
    bType = cast<RankedTensorType>(b.getType());
    bool aVector =
        cast<RankedTensorType>(adaptor.getA().getType()).getRank() == 1;
    bool bVector =
        cast<RankedTensorType>(adaptor.getB().getType()).getRank() == 1;
    SmallVector<int64_t> shape(resultType.getShape());
    if (aVector && bVector) {
      shape = {1, 1};
    } else if (aVector) {
      shape.insert(shape.end() - 1, 1);
    } else if (bVector) {
      shape.push_back(1);
    }
    auto fullType = RankedTensorType::get(shape, resultType.getElementType());
    Value product = buildMatmul(rewriter, loc, a, b, fullType);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, product, resultType));
    return success();
  }
};

struct GemmLowering final : OpConversionPattern<GemmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto resultType = loweredAnyShapeType(op.getY().getType());
    Type element = resultType.getElementType();
    Value product = buildMatmul(rewriter, loc, adaptor.getA(), adaptor.getB(),
                                resultType, op.getTransA(), op.getTransB());
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    SmallVector<Value> inputs = {product};
    bool hasC = !isNone(op.getC()) && beta != 0;
    if (hasC) {
      inputs.push_back(adaptor.getC());
    }
    if (alpha == 1 && !hasC) {
      rewriter.replaceOp(op, product);
      return success();
    }
    Value result = buildElementwise(
        rewriter, loc, cast<RankedTensorType>(product.getType()), inputs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = alpha == 1 ? args[0]
                               : mul(b, l, args[0],
                                     scalarConstant(b, l, element, alpha));
          if (hasC) {
            Value c = beta == 1 ? args[1]
                                : mul(b, l, args[1],
                                      scalarConstant(b, l, element, beta));
            v = add(b, l, v, c);
          }
          return v;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Begin/end padding per spatial dimension from pads or auto_pad.
void windowPads(ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                std::optional<ArrayRef<int64_t>> pads, StringRef autoPad,
                SmallVectorImpl<int64_t> &begin,
                SmallVectorImpl<int64_t> &end) {
  int64_t n = inSpatial.size();
  for (int64_t i = 0; i < n; ++i) {
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t out = (inSpatial[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>((out - 1) * strides[i] +
                                            (kernel[i] - 1) * dilations[i] + 1 -
                                            inSpatial[i],
                                        0);
      int64_t small = total / 2;
      begin.push_back(autoPad == "SAME_UPPER" ? small : total - small);
      end.push_back(autoPad == "SAME_UPPER" ? total - small : small);
    } else if (autoPad == "NOTSET" && pads) {
      begin.push_back((*pads)[i]);
      end.push_back((*pads)[i + n]);
    } else {
      begin.push_back(0);
      end.push_back(0);
    }
  }
}

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t n) {
  return values ? SmallVector<int64_t>(*values) : SmallVector<int64_t>(n, 1);
}

/// Pads the spatial dims (2..) of `input` so every window of the output is
/// in bounds: `begin` before, and after whatever `end` and the output size
/// need.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                 ArrayRef<int64_t> outSpatial, ArrayRef<int64_t> kernel,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 Value padValue) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t n = kernel.size();
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0);
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = type.getDimSize(i + 2);
    int64_t needed =
        (outSpatial[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
    low[i + 2] = begin[i];
    high[i + 2] = std::max<int64_t>(needed - in - begin[i], end[i]);
    any |= low[i + 2] || high[i + 2];
  }
  if (!any) {
    return input;
  }
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    shape[d] += low[d] + high[d];
  }
  auto padded = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> lowOfr, highOfr;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    lowOfr.push_back(b.getIndexAttr(low[d]));
    highOfr.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, loc, padded, input, lowOfr, highOfr,
                               padValue);
}

/// Convolution as one generic over (n, g, m, c, k..., o...): output
/// positions innermost, so the inner loop runs along a contiguous output
/// row. Used when each group has one input channel (depthwise), where an
/// im2col matrix would have a tiny reduction.
Value directConv(OpBuilder &b, Location loc, Value x, Value w,
                 RankedTensorType yType, int64_t group,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  MLIRContext *ctx = b.getContext();
  auto pType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = yType.getElementType();
  int64_t s = pType.getRank() - 2;
  int64_t batch = pType.getDimSize(0), channels = pType.getDimSize(1);
  int64_t filters = wType.getDimSize(0);
  SmallVector<int64_t> xShape = {batch, group, channels / group};
  llvm::append_range(xShape, pType.getShape().drop_front(2));
  x = reshapeTo(b, loc, x, RankedTensorType::get(xShape, element));
  SmallVector<int64_t> wShape = {group, filters / group, channels / group};
  llvm::append_range(wShape, wType.getShape().drop_front(2));
  w = reshapeTo(b, loc, w, RankedTensorType::get(wShape, element));
  SmallVector<int64_t> oShape = {batch, group, filters / group};
  llvm::append_range(oShape, yType.getShape().drop_front(2));
  auto oType = RankedTensorType::get(oShape, element);
  int64_t dims = 3 + 1 + s + s;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xExprs = {d(0), d(1), d(3)};
  SmallVector<AffineExpr> wExprs = {d(1), d(2), d(3)};
  SmallVector<AffineExpr> oExprs = {d(0), d(1), d(2)};
  for (int64_t i = 0; i < s; ++i) {
    xExprs.push_back(d(4 + s + i) * strides[i] + d(4 + i) * dilations[i]);
    wExprs.push_back(d(4 + i));
    oExprs.push_back(d(4 + s + i));
  }
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, xExprs, ctx),
                                 AffineMap::get(dims, 0, wExprs, ctx),
                                 AffineMap::get(dims, 0, oExprs, ctx)};
  SmallVector<IteratorType> iterators(3, IteratorType::parallel);
  iterators.append(1 + s, IteratorType::reduction);
  iterators.append(s, IteratorType::parallel);
  Value init = filledTensor(b, loc, oType, scalarConstant(b, loc, element, 0),
                            batchSizes(b, loc, oType, x));
  Value out =
      linalg::GenericOp::create(
          b, loc, TypeRange{oType}, ValueRange{x, w}, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nb, l, add(nb, l, args[2], mul(nb, l, args[0], args[1])));
          })
          .getResult(0);
  return reshapeTo(b, loc, out, yType);
}

/// Convolution as im2col + matmul: the padded input `x` is copied into
/// columns col[n, g, (c, k...), (o...)] (a pure copy the vectorizer
/// handles, with no index arithmetic beyond the window maps; a 1x1
/// stride-1 window needs no copy), then out[n, g, f, o] = w[g, f, :] x
/// col[n, g, :, o] is one matmul per (n, g), which the targets tile into
/// register-blocked kernels.
Value im2colConv(OpBuilder &b, Location loc, Value x, Value w,
                 RankedTensorType yType, int64_t group,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  MLIRContext *ctx = b.getContext();
  auto pType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = yType.getElementType();
  int64_t s = pType.getRank() - 2;
  int64_t batch = pType.getDimSize(0), perGroup = pType.getDimSize(1) / group;
  int64_t filters = wType.getDimSize(0);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  ArrayRef<int64_t> outSpatial = yType.getShape().drop_front(2);
  int64_t window = 1, positions = 1;
  bool identity = true;
  for (int64_t i = 0; i < s; ++i) {
    window *= kernel[i];
    positions *= outSpatial[i];
    identity &= kernel[i] == 1 && strides[i] == 1 &&
                pType.getDimSize(2 + i) == outSpatial[i];
  }
  SmallVector<int64_t> xShape = {batch, group, perGroup};
  llvm::append_range(xShape, pType.getShape().drop_front(2));
  x = reshapeTo(b, loc, x, RankedTensorType::get(xShape, element));
  auto colType = RankedTensorType::get(
      {batch, group, perGroup * window, positions}, element);
  Value col;
  if (identity) {
    col = reshapeTo(b, loc, x, colType);
  } else {
    // dims: n, g, c, k_1..k_s, o_1..o_s (all parallel, output-ordered).
    int64_t dims = 3 + 2 * s;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> xExprs = {d(0), d(1), d(2)};
    SmallVector<int64_t> colShape = {batch, group, perGroup};
    llvm::append_range(colShape, kernel);
    llvm::append_range(colShape, outSpatial);
    for (int64_t i = 0; i < s; ++i) {
      xExprs.push_back(d(3 + s + i) * strides[i] + d(3 + i) * dilations[i]);
    }
    auto fullType = RankedTensorType::get(colShape, element);
    Value empty =
        emptyTensor(b, loc, fullType, batchSizes(b, loc, fullType, x));
    SmallVector<AffineMap> maps = {
        AffineMap::get(dims, 0, xExprs, ctx),
        AffineMap::getMultiDimIdentityMap(dims, ctx)};
    SmallVector<IteratorType> iterators(dims, IteratorType::parallel);
    col = linalg::GenericOp::create(
              b, loc, TypeRange{fullType}, ValueRange{x}, ValueRange{empty},
              maps, iterators,
              [](OpBuilder &nb, Location l, ValueRange args) {
                linalg::YieldOp::create(nb, l, args[0]);
              })
              .getResult(0);
    col = reshapeTo(b, loc, col, colType);
  }
  w = reshapeTo(b, loc, w,
                RankedTensorType::get(
                    {group, filters / group, perGroup * window}, element));
  auto oType = RankedTensorType::get({batch, group, filters / group, positions},
                                     element);
  Value out = buildMatmul(b, loc, w, col, oType);
  return reshapeTo(b, loc, out, yType);
}

/// Conv, and ConvInteger as a Conv over i32 values minus zero points.
template <typename Op>
struct ConvLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OpAdaptor = typename Op::Adaptor;
  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    Location loc = op.getLoc();
    Value input = adaptor.getX(), weights = adaptor.getW();
    if constexpr (std::is_same_v<Op, ConvIntegerOp>) {
      auto zp = [&](Value original, Value lowered) {
        return isNone(original) ? Value() : lowered;
      };
      // The x zero point is a scalar; w's may be per output channel.
      input = widenMinusZp(rewriter, loc, input,
                           isUnsignedTensor(op.getX().getType()),
                           zp(op.getXZeroPoint(), adaptor.getXZeroPoint()),
                           isUnsignedTensor(op.getXZeroPoint().getType()), 0);
      weights = widenMinusZp(rewriter, loc, weights,
                             isUnsignedTensor(op.getW().getType()),
                             zp(op.getWZeroPoint(), adaptor.getWZeroPoint()),
                             isUnsignedTensor(op.getWZeroPoint().getType()), 0);
    }
    auto xType = cast<RankedTensorType>(input.getType());
    auto wType = cast<RankedTensorType>(weights.getType());
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    int64_t s = xType.getRank() - 2;
    int64_t group = op.getGroup();
    int64_t channels = xType.getDimSize(1);
    int64_t filters = wType.getDimSize(0);
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    SmallVector<int64_t> strides = orOnes(op.getStrides(), s);
    SmallVector<int64_t> dilations = orOnes(op.getDilations(), s);
    SmallVector<int64_t> begin, end;
    windowPads(xType.getShape().drop_front(2), kernel, strides, dilations,
               op.getPads(), op.getAutoPad(), begin, end);
    SmallVector<int64_t> outSpatial(yType.getShape().drop_front(2));
    Value x = padSpatial(rewriter, loc, input, begin, end, outSpatial, kernel,
                         strides, dilations,
                         scalarConstant(rewriter, loc, element, 0));
    int64_t perGroup = channels / group;
    Value w = weights;
    Value out =
        perGroup == 1
            ? directConv(rewriter, loc, x, w, yType, group, strides, dilations)
            : im2colConv(rewriter, loc, x, w, yType, group, strides, dilations);
    out = reshapeTo(rewriter, loc, out, yType);
    Value bias;
    if constexpr (std::is_same_v<Op, ConvOp>) {
      if (!isNone(op.getB())) {
        bias = adaptor.getB();
      }
    }
    if (bias) {
      SmallVector<int64_t> bShape = {filters};
      bShape.append(s, 1);
      bias = reshapeTo(rewriter, loc, bias,
                       RankedTensorType::get(bShape, element));
      out = buildElementwise(rewriter, loc, yType, {out, bias},
                             [](OpBuilder &b, Location l, ValueRange args) {
                               return add(b, l, args[0], args[1]);
                             });
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

enum class PoolKind { Max, Average, Lp };

/// A pooling window reduction over `x` (N x C x spatial), padded with
/// `padValue`; `combine(acc, element)`.
Value buildPool(
    OpBuilder &b, Location loc, Value x, RankedTensorType yType,
    ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *ctx = b.getContext();
  int64_t s = kernel.size();
  int64_t dims = 2 + 2 * s;
  // n, c, window..., output...: output positions innermost (vectorizable).
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> xExprs = {d(0), d(1)}, kExprs, oExprs = {d(0), d(1)};
  for (int64_t i = 0; i < s; ++i) {
    xExprs.push_back(d(2 + s + i) * strides[i] + d(2 + i) * dilations[i]);
    kExprs.push_back(d(2 + i));
    oExprs.push_back(d(2 + s + i));
  }
  Type element = yType.getElementType();
  Value window = tensor::EmptyOp::create(b, loc, kernel, element);
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, xExprs, ctx),
                                 AffineMap::get(dims, 0, kExprs, ctx),
                                 AffineMap::get(dims, 0, oExprs, ctx)};
  SmallVector<IteratorType> iterators(2, IteratorType::parallel);
  iterators.append(s, IteratorType::reduction);
  iterators.append(s, IteratorType::parallel);
  Value acc = filledTensor(b, loc, yType, init, batchSizes(b, loc, yType, x));
  return linalg::GenericOp::create(
             b, loc, TypeRange{yType}, ValueRange{x, window}, ValueRange{acc},
             maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       combine(nb, nl, args[2], args[0]));
             })
      .getResult(0);
}

/// MaxPool's Indices: for each output, the flat index into X (row-major,
/// or with H and W swapped for `columnMajor`) of the first largest element
/// of its window, skipping padding.
Value maxPoolIndices(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                     ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilations, ArrayRef<int64_t> begin,
                     bool columnMajor) {
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> shape = xType.getShape();
  int64_t s = kernel.size();
  int64_t window = 1;
  for (int64_t k : kernel) {
    window *= k;
  }
  Type element = xType.getElementType();
  return buildIndexed(
      b, loc, type, [&](OpBuilder &nb, Location l, ArrayRef<Value> out) {
        Type i64 = nb.getI64Type();
        Value lowest =
            isa<FloatType>(element)
                ? scalarConstant(nb, l, element, -INFINITY)
                : arith::ConstantOp::create(
                      nb, l,
                      nb.getIntegerAttr(element,
                                        APInt::getSignedMinValue(
                                            element.getIntOrFloatBitWidth())))
                      .getResult();
        auto loop = scf::ForOp::create(
            nb, l, indexConstant(nb, l, 0), indexConstant(nb, l, window),
            indexConstant(nb, l, 1),
            ValueRange{lowest, scalarConstant(nb, l, i64, 0)},
            [&](OpBuilder &lb, Location ll, Value w, ValueRange best) {
              // The window offset per spatial axis, then the input position.
              SmallVector<Value> at = {out[0], out[1]};
              Value inside = arith::ConstantIntOp::create(lb, ll, 1, 1);
              int64_t stride = window;
              for (int64_t d = 0; d < s; ++d) {
                stride /= kernel[d];
                Value k = arith::RemUIOp::create(
                    lb, ll,
                    arith::DivUIOp::create(lb, ll, w,
                                           indexConstant(lb, ll, stride)),
                    indexConstant(lb, ll, kernel[d]));
                Value pos = arith::AddIOp::create(
                    lb, ll,
                    arith::MulIOp::create(lb, ll, out[2 + d],
                                          indexConstant(lb, ll, strides[d])),
                    arith::MulIOp::create(lb, ll, k,
                                          indexConstant(lb, ll, dilations[d])));
                pos = arith::SubIOp::create(lb, ll, pos,
                                            indexConstant(lb, ll, begin[d]));
                Value ok = arith::AndIOp::create(
                    lb, ll,
                    arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sge,
                                          pos, indexConstant(lb, ll, 0)),
                    arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::slt,
                                          pos,
                                          indexConstant(lb, ll, shape[2 + d])));
                inside = arith::AndIOp::create(lb, ll, inside, ok);
                // Clamp so the read stays in bounds; `inside` discards it.
                pos = arith::MaxSIOp::create(lb, ll, pos,
                                             indexConstant(lb, ll, 0));
                pos = arith::MinSIOp::create(
                    lb, ll, pos, indexConstant(lb, ll, shape[2 + d] - 1));
                at.push_back(pos);
              }
              Value v = tensor::ExtractOp::create(lb, ll, x, at);
              Value greater =
                  isa<FloatType>(element)
                      ? arith::CmpFOp::create(lb, ll, arith::CmpFPredicate::OGT,
                                              v, best[0])
                            .getResult()
                      : arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sgt,
                                              v, best[0])
                            .getResult();
              Value take = arith::AndIOp::create(lb, ll, inside, greater);
              // Flat index: n, c, then the spatial axes (last two swapped when
              // column-major).
              SmallVector<int64_t> order =
                  llvm::to_vector(llvm::seq<int64_t>(0, 2 + s));
              if (columnMajor && s >= 2) {
                std::swap(order[s], order[s + 1]);
              }
              Value flat = indexConstant(lb, ll, 0);
              for (int64_t d : order) {
                flat = arith::AddIOp::create(
                    lb, ll,
                    arith::MulIOp::create(lb, ll, flat,
                                          indexConstant(lb, ll, shape[d])),
                    at[d]);
              }
              flat = arith::IndexCastOp::create(lb, ll, i64, flat);
              scf::YieldOp::create(
                  lb, ll,
                  ValueRange{
                      arith::SelectOp::create(lb, ll, take, v, best[0])
                          .getResult(),
                      arith::SelectOp::create(lb, ll, take, flat, best[1])
                          .getResult()});
            });
        return loop.getResult(1);
      });
}

template <typename Op, PoolKind kind>
struct PoolLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    int64_t s = xType.getRank() - 2;
    ArrayRef<int64_t> kernel = op.getKernelShape();
    SmallVector<int64_t> strides = orOnes(op.getStrides(), s);
    SmallVector<int64_t> dilations = orOnes(op.getDilations(), s);
    SmallVector<int64_t> begin, end;
    windowPads(xType.getShape().drop_front(2), kernel, strides, dilations,
               op.getPads(), op.getAutoPad(), begin, end);
    SmallVector<int64_t> outSpatial(yType.getShape().drop_front(2));
    auto pad = [&](Value v, Value padValue) {
      return padSpatial(rewriter, loc, v, begin, end, outSpatial, kernel,
                        strides, dilations, padValue);
    };
    if constexpr (kind == PoolKind::Max) {
      Value lowest =
          isa<FloatType>(element)
              ? scalarConstant(rewriter, loc, element, -INFINITY)
              : arith::ConstantOp::create(
                    rewriter, loc,
                    rewriter.getIntegerAttr(
                        element, APInt::getSignedMinValue(
                                     element.getIntOrFloatBitWidth())))
                    .getResult();
      Value y =
          buildPool(rewriter, loc, pad(adaptor.getX(), lowest), yType, kernel,
                    strides, dilations, lowest,
                    [](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                      if (isa<FloatType>(v.getType())) {
                        return arith::MaximumFOp::create(b, l, acc, v);
                      }
                      return arith::MaxSIOp::create(b, l, acc, v);
                    });
      if (!isa<NoneType>(op.getIndices().getType()) &&
          !yType.hasStaticShape()) {
        return rewriter.notifyMatchFailure(op, "Indices with a dynamic batch");
      }
      Value indices =
          isa<NoneType>(op.getIndices().getType())
              ? noneValue(rewriter, loc)
              : maxPoolIndices(rewriter, loc, adaptor.getX(),
                               loweredTensorType(op.getIndices().getType()),
                               kernel, strides, dilations, begin,
                               op.getStorageOrder() != 0);
      rewriter.replaceOp(op, {y, indices});
      return success();
    } else {
      Value zero = scalarConstant(rewriter, loc, element, 0);
      double p = 1;
      if constexpr (kind == PoolKind::Lp) {
        p = op.getP();
      }
      Value sum = buildPool(
          rewriter, loc, pad(adaptor.getX(), zero), yType, kernel, strides,
          dilations, zero, [p](OpBuilder &b, Location l, Value acc, Value v) {
            if (p != 1) {
              Value a = math::AbsFOp::create(b, l, v);
              v = math::PowFOp::create(b, l, a,
                                       scalarConstant(b, l, a.getType(), p));
            }
            return add(b, l, acc, v);
          });
      if constexpr (kind == PoolKind::Lp) {
        rewriter.replaceOp(
            op, buildElementwise(rewriter, loc, yType, {sum},
                                 [p](OpBuilder &b, Location l, ValueRange a) {
                                   return math::PowFOp::create(
                                       b, l, a[0],
                                       scalarConstant(b, l, a[0].getType(),
                                                      1.0 / p));
                                 }));
        return success();
      } else {
        // Divisors: window elements inside the input (and inside the pads
        // when count_include_pad), computed by pooling a tensor of ones.
        Value ones = filledTensor(rewriter, loc, xType,
                                  scalarConstant(rewriter, loc, element, 1),
                                  ValueRange{adaptor.getX()});
        Value padOnes = padSpatial(
            rewriter, loc, ones, begin, end,
            SmallVector<int64_t>(xType.getShape().drop_front(2)), kernel,
            SmallVector<int64_t>(s, 1), SmallVector<int64_t>(s, 1),
            op.getCountIncludePad() ? scalarConstant(rewriter, loc, element, 1)
                                    : zero);
        padOnes = padSpatial(rewriter, loc, padOnes, SmallVector<int64_t>(s, 0),
                             SmallVector<int64_t>(s, 0), outSpatial, kernel,
                             strides, dilations, zero);
        Value count =
            buildPool(rewriter, loc, padOnes, yType, kernel, strides, dilations,
                      zero, [](OpBuilder &b, Location l, Value acc, Value v) {
                        return add(b, l, acc, v);
                      });
        rewriter.replaceOp(
            op,
            buildElementwise(
                rewriter, loc, yType, {sum, count},
                [](OpBuilder &b, Location l, ValueRange a) {
                  return arith::DivFOp::create(b, l, a[0], a[1]).getResult();
                }));
        return success();
      }
    }
  }
};

struct BatchNormLowering final : OpConversionPattern<BatchNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Inference mode is elementwise: any dynamic dims of X.
    if (failed(checkTensors(op, rewriter,
                            /*allowDynamic=*/op.getTrainingMode() == 0))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    int64_t rank = yType.getRank();
    bool training = op.getTrainingMode() != 0;
    if (training && (rank < 2 || !isa<FloatType>(element))) {
      return rewriter.notifyMatchFailure(
          op, "training mode needs float N x C x ...");
    }
    // Training mode normalizes with the batch's own mean and (population)
    // variance over every axis but the channels.
    Value mean = adaptor.getInputMean(), var = adaptor.getInputVar();
    if (training) {
      SmallVector<int64_t> axes = {0};
      int64_t count = yType.getDimSize(0);
      for (int64_t d = 2; d < rank; ++d) {
        axes.push_back(d);
        count *= yType.getDimSize(d);
      }
      auto sum = [&](Value v, bool square) {
        return buildReduction(
            rewriter, loc, v, axes, /*keepDims=*/true,
            scalarConstant(rewriter, loc, element, 0),
            [square](OpBuilder &b, Location l, Value acc, Value e) {
              if (square) {
                e = arith::MulFOp::create(b, l, e, e);
              }
              return arith::AddFOp::create(b, l, acc, e).getResult();
            });
      };
      auto divide = [&](Value v) {
        return buildElementwise(
            rewriter, loc, cast<RankedTensorType>(v.getType()), {v},
            [&](OpBuilder &b, Location l, ValueRange a) {
              return arith::DivFOp::create(b, l, a[0],
                                           scalarConstant(b, l, element, count))
                  .getResult();
            });
      };
      mean = divide(sum(adaptor.getX(), false));
      Value centered = buildElementwise(
          rewriter, loc, yType, {adaptor.getX(), mean},
          [](OpBuilder &b, Location l, ValueRange a) {
            return arith::SubFOp::create(b, l, a[0], a[1]).getResult();
          });
      var = divide(sum(centered, true));
    }
    auto perChannel = [&](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> shape = {type.getNumElements()};
      shape.append(std::max<int64_t>(rank - 2, 0), 1);
      return reshapeTo(rewriter, loc, v,
                       RankedTensorType::get(shape, type.getElementType()));
    };
    double eps = op.getEpsilon().convertToDouble();
    Value y = buildElementwise(
        rewriter, loc, yType,
        {adaptor.getX(), perChannel(adaptor.getScale()),
         perChannel(adaptor.getB()), perChannel(mean), perChannel(var)},
        [&](OpBuilder &b, Location l, ValueRange a) {
          auto cast = [&](Value v) {
            return castScalar(b, l, v, element, false, false);
          };
          Value centered = arith::SubFOp::create(b, l, a[0], cast(a[3]));
          Value var = arith::AddFOp::create(b, l, cast(a[4]),
                                            scalarConstant(b, l, element, eps));
          Value norm = arith::DivFOp::create(b, l, centered,
                                             math::SqrtOp::create(b, l, var));
          return arith::AddFOp::create(
                     b, l, arith::MulFOp::create(b, l, norm, cast(a[1])),
                     cast(a[2]))
              .getResult();
        });
    // Running statistics: input * momentum + batch * (1 - momentum).
    double momentum = op.getMomentum().convertToDouble();
    SmallVector<Value> results = {y};
    for (auto [result, input, batch] :
         {std::make_tuple(op.getRunningMean(), adaptor.getInputMean(), mean),
          std::make_tuple(op.getRunningVar(), adaptor.getInputVar(), var)}) {
      if (isa<NoneType>(result.getType())) {
        results.push_back(noneValue(rewriter, loc));
        continue;
      }
      if (!training) {
        return rewriter.notifyMatchFailure(
            op, "running statistics outside training mode");
      }
      auto type = loweredTensorType(result.getType());
      results.push_back(buildElementwise(
          rewriter, loc, type, {input, reshapeTo(rewriter, loc, batch, type)},
          [&](OpBuilder &b, Location l, ValueRange a) {
            Type t = type.getElementType();
            return arith::AddFOp::create(
                       b, l,
                       arith::MulFOp::create(b, l, a[0],
                                             scalarConstant(b, l, t, momentum)),
                       arith::MulFOp::create(
                           b, l, castScalar(b, l, a[1], t, false, false),
                           scalarConstant(b, l, t, 1 - momentum)))
                .getResult();
          }));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateContractionLoweringPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns
      .add<MatMulLowering, GemmLowering, ConvLowering<ConvOp>,
           ConvLowering<ConvIntegerOp>, PoolLowering<MaxPoolOp, PoolKind::Max>,
           PoolLowering<AveragePoolOp, PoolKind::Average>,
           PoolLowering<LpPoolOp, PoolKind::Lp>, BatchNormLowering>(
          converter, patterns.getContext());
}

} // namespace infer::lowering
