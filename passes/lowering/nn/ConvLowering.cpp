//===- ConvLowering.cpp - convolutions -> linalg --------------------------===//
//
// Conv (depthwise directly, others as im2col + matmul), ConvInteger (a
// Conv over i32 values minus zero points) and ConvTranspose.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/nn/Windows.h"

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

using mlir::utils::IteratorType;
using scalar::add;
using scalar::mul;

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

/// y[n, m, o...] = B[m] + sum over the channels c of m's group and the
/// kernel positions k of x[n, c, i...] * W[c, m', k...], where
/// o + pad_begin - k * dilation = i * stride.
/// ConvTranspose whose windows tile the output exactly (kernel == stride,
/// no dilation, padding or output padding, one group: the 2x2 stride-2
/// upsampling of detection and segmentation heads): each output element
/// gets one product sum, y[n, co, o*s + k] = sum_ci x[n, ci, o] w[ci, co, k]
/// (+ bias). That is a matmul per kernel tap, t[n, k, co, o] (output
/// positions innermost, the register-tiled kernels' form), then one copy
/// interleaving the taps into y with the bias added.
Value tiledConvTranspose(OpBuilder &b, Location loc, Value x, Value w,
                         Value bias, RankedTensorType yType) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = yType.getElementType();
  int64_t s = xType.getRank() - 2;
  int64_t batch = xType.getDimSize(0), filters = wType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  ArrayRef<int64_t> in = xType.getShape().drop_front(2);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // t: dims n, k_1..k_s, co, o_1..o_s, ci (reduction).
  int64_t dims = 3 + 2 * s;
  SmallVector<AffineExpr> xExprs = {d(0), d(dims - 1)};
  SmallVector<AffineExpr> wExprs = {d(dims - 1), d(1 + s)};
  SmallVector<AffineExpr> tExprs = {d(0)};
  SmallVector<int64_t> tShape = {batch};
  for (int64_t i = 0; i < s; ++i) {
    xExprs.push_back(d(2 + s + i));
    wExprs.push_back(d(1 + i));
    tExprs.push_back(d(1 + i));
    tShape.push_back(kernel[i]);
  }
  tExprs.push_back(d(1 + s));
  tShape.push_back(filters);
  for (int64_t i = 0; i < s; ++i) {
    tExprs.push_back(d(2 + s + i));
    tShape.push_back(in[i]);
  }
  auto tType = RankedTensorType::get(tShape, element);
  SmallVector<IteratorType> iterators(dims - 1, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  Value t = linalg::GenericOp::create(
                b, loc, TypeRange{tType}, ValueRange{x, w},
                ValueRange{filledTensor(b, loc, tType,
                                        scalarConstant(b, loc, element, 0))},
                SmallVector<AffineMap>{AffineMap::get(dims, 0, xExprs, ctx),
                                       AffineMap::get(dims, 0, wExprs, ctx),
                                       AffineMap::get(dims, 0, tExprs, ctx)},
                iterators,
                [&](OpBuilder &nb, Location l, ValueRange args) {
                  linalg::YieldOp::create(
                      nb, l, add(nb, l, args[2], mul(nb, l, args[0], args[1])));
                })
                .getResult(0);
  // y viewed as [n, co, o_1, k_1, ..., o_s, k_s]: dims n, co, (o_i, k_i)...
  SmallVector<int64_t> eShape = {batch, filters};
  SmallVector<AffineExpr> fromT = {d(0)};
  for (int64_t i = 0; i < s; ++i) {
    eShape.push_back(in[i]);
    eShape.push_back(kernel[i]);
    fromT.push_back(d(3 + 2 * i));
  }
  fromT.push_back(d(1));
  for (int64_t i = 0; i < s; ++i) {
    fromT.push_back(d(2 + 2 * i));
  }
  int64_t eDims = 2 + 2 * s;
  auto eType = RankedTensorType::get(eShape, element);
  SmallVector<Value> inputs = {t};
  SmallVector<AffineMap> maps = {AffineMap::get(eDims, 0, fromT, ctx)};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(AffineMap::get(eDims, 0, {d(1)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(eDims, ctx));
  Value y = linalg::GenericOp::create(
                b, loc, TypeRange{eType}, inputs,
                ValueRange{emptyTensor(b, loc, eType)}, maps,
                SmallVector<IteratorType>(eDims, IteratorType::parallel),
                [&](OpBuilder &nb, Location l, ValueRange args) {
                  Value v = args[0];
                  if (bias) {
                    v = add(nb, l, v, args[1]);
                  }
                  linalg::YieldOp::create(nb, l, v);
                })
                .getResult(0);
  return reshapeTo(b, loc, y, yType);
}

struct ConvTransposeLowering final : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The generic variant: a dynamic batch, sized at run time.
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = cast<RankedTensorType>(adaptor.getW().getType());
    auto yType = loweredAnyShapeType(op.getY().getType());
    int64_t s = xType.getRank() - 2;
    int64_t group = op.getGroup();
    int64_t cPerGroup = xType.getDimSize(1) / group;
    int64_t mPerGroup = wType.getDimSize(1);
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    auto orOnes = [&](std::optional<ArrayRef<int64_t>> v) {
      return v ? SmallVector<int64_t>(*v) : SmallVector<int64_t>(s, 1);
    };
    SmallVector<int64_t> strides = orOnes(op.getStrides());
    SmallVector<int64_t> dilations = orOnes(op.getDilations());
    SmallVector<int64_t> outPad =
        op.getOutputPadding() ? SmallVector<int64_t>(*op.getOutputPadding())
                              : SmallVector<int64_t>(s, 0);
    SmallVector<int64_t> padBegin(s, 0);
    StringRef autoPad = op.getAutoPad();
    for (int64_t i = 0; i < s; ++i) {
      int64_t in = xType.getDimSize(i + 2), out = yType.getDimSize(i + 2);
      if (op.getOutputShape() || autoPad == "SAME_UPPER" ||
          autoPad == "SAME_LOWER") {
        int64_t total = strides[i] * (in - 1) + outPad[i] +
                        (kernel[i] - 1) * dilations[i] + 1 - out;
        // Halves rounded down (as ONNX's reference does), which matters
        // when output_shape is below the natural size and total < 0.
        int64_t half = llvm::divideFloorSigned(total, 2);
        padBegin[i] = autoPad == "SAME_UPPER" ? half : total - half;
      } else if (autoPad == "NOTSET" && op.getPads()) {
        padBegin[i] = (*op.getPads())[i];
      }
    }
    int64_t kernelCount = 1;
    for (int64_t k : kernel) {
      kernelCount *= k;
    }
    Value x = adaptor.getX(), w = adaptor.getW();
    Value bias = isNone(op.getB()) ? Value() : adaptor.getB();
    bool tiles = group == 1 && yType.hasStaticShape();
    for (int64_t i = 0; i < s; ++i) {
      tiles &= kernel[i] == strides[i] && dilations[i] == 1 &&
               padBegin[i] == 0 &&
               yType.getDimSize(i + 2) == xType.getDimSize(i + 2) * strides[i];
    }
    if (tiles) {
      rewriter.replaceOp(
          op, tiledConvTranspose(rewriter, op.getLoc(), x, w, bias, yType));
      return success();
    }
    Type t = yType.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), yType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> o) {
          Value m = o[1];
          Value g =
              arith::DivUIOp::create(b, l, m, indexConstant(b, l, mPerGroup));
          Value mLocal =
              arith::RemUIOp::create(b, l, m, indexConstant(b, l, mPerGroup));
          Value init =
              bias ? tensor::ExtractOp::create(b, l, bias, ValueRange{m})
                         .getResult()
                   : scalarConstant(b, l, t, 0);
          auto channels = scf::ForOp::create(
              b, l, indexConstant(b, l, 0), indexConstant(b, l, cPerGroup),
              indexConstant(b, l, 1), ValueRange{init},
              [&](OpBuilder &cb, Location cl, Value cLocal, ValueRange cAcc) {
                Value c = arith::AddIOp::create(
                    cb, cl,
                    arith::MulIOp::create(cb, cl, g,
                                          indexConstant(cb, cl, cPerGroup)),
                    cLocal);
                auto taps = scf::ForOp::create(
                    cb, cl, indexConstant(cb, cl, 0),
                    indexConstant(cb, cl, kernelCount),
                    indexConstant(cb, cl, 1), ValueRange{cAcc[0]},
                    [&](OpBuilder &kb, Location kl, Value flat,
                        ValueRange kAcc) {
                      SmallVector<Value> k = delinearize(kb, kl, flat, kernel);
                      Value valid = arith::ConstantIntOp::create(kb, kl, 1, 1);
                      SmallVector<Value> xAt = {o[0], c}, wAt = {c, mLocal};
                      for (int64_t d = 0; d < s; ++d) {
                        // i * stride = o + pad_begin - k * dilation
                        Value num = arith::SubIOp::create(
                            kb, kl,
                            arith::AddIOp::create(
                                kb, kl, o[d + 2],
                                indexConstant(kb, kl, padBegin[d])),
                            arith::MulIOp::create(
                                kb, kl, k[d],
                                indexConstant(kb, kl, dilations[d])));
                        Value nonNeg = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::sge, num,
                            indexConstant(kb, kl, 0));
                        Value rem = arith::RemSIOp::create(
                            kb, kl, num, indexConstant(kb, kl, strides[d]));
                        Value exact = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::eq, rem,
                            indexConstant(kb, kl, 0));
                        Value i = arith::DivSIOp::create(
                            kb, kl, num, indexConstant(kb, kl, strides[d]));
                        Value inRange = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::slt, i,
                            indexConstant(kb, kl, xType.getDimSize(d + 2)));
                        valid = arith::AndIOp::create(
                            kb, kl, valid,
                            arith::AndIOp::create(
                                kb, kl, nonNeg,
                                arith::AndIOp::create(kb, kl, exact, inRange)));
                        xAt.push_back(
                            clampIndex(kb, kl, i, xType.getDimSize(d + 2)));
                        wAt.push_back(k[d]);
                      }
                      Value xv = tensor::ExtractOp::create(kb, kl, x, xAt);
                      Value wv = tensor::ExtractOp::create(kb, kl, w, wAt);
                      Value prod = arith::MulFOp::create(kb, kl, xv, wv);
                      Value sum = arith::AddFOp::create(kb, kl, kAcc[0], prod);
                      scf::YieldOp::create(
                          kb, kl,
                          arith::SelectOp::create(kb, kl, valid, sum, kAcc[0])
                              .getResult());
                    });
                scf::YieldOp::create(cb, cl, taps.getResult(0));
              });
          return channels.getResult(0);
        },
        batchSizes(rewriter, op.getLoc(), yType, x));
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateConvLoweringPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<ConvLowering<ConvOp>, ConvLowering<ConvIntegerOp>,
               ConvTransposeLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
