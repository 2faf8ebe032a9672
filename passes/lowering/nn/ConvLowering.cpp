//===- ConvLowering.cpp - convolutions -> linalg --------------------------===//
//
// Conv (depthwise directly, others as im2col + matmul) and ConvInteger (a
// Conv over i32 values minus zero points), over static channel counts and
// any batch and spatial sizes.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/graph/Precision.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/PackedLanes.h"
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
Value directConv(OpBuilder &b, Location loc, Value x, Value w, Type accElement,
                 ArrayRef<OpFoldResult> outSpatial, int64_t group,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 MultiplyAdd multiplyAdd) {
  MLIRContext *ctx = b.getContext();
  auto pType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t s = pType.getRank() - 2;
  int64_t channels = pType.getDimSize(1);
  int64_t filters = wType.getDimSize(0);
  SmallVector<OpFoldResult> xSizes = sizesOf(b, loc, x);
  OpFoldResult batch = xSizes[0];
  SmallVector<OpFoldResult> gSizes = {batch, b.getIndexAttr(group),
                                      b.getIndexAttr(channels / group)};
  llvm::append_range(gSizes, ArrayRef(xSizes).drop_front(2));
  x = reshapeToSizes(b, loc, x, gSizes);
  SmallVector<int64_t> wShape = {group, filters / group, channels / group};
  llvm::append_range(wShape, wType.getShape().drop_front(2));
  w = reshapeTo(b, loc, w,
                RankedTensorType::get(wShape, wType.getElementType()));
  SmallVector<OpFoldResult> oSizes = {batch, b.getIndexAttr(group),
                                      b.getIndexAttr(filters / group)};
  llvm::append_range(oSizes, outSpatial);
  RankedTensorType oType = typeOfSizes(oSizes, accElement);
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
  Value init = filledTensor(b, loc, oType,
                            scalarConstant(b, loc, accElement, 0), oSizes);
  Value out =
      linalg::GenericOp::create(
          b, loc, TypeRange{oType}, ValueRange{x, w}, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nb, l,
                multiplyAdd
                    ? multiplyAdd(nb, l, args[2], args[0], args[1])
                    : add(nb, l, args[2], mul(nb, l, args[0], args[1])));
          })
          .getResult(0);
  SmallVector<OpFoldResult> ySizes = {batch, b.getIndexAttr(filters)};
  llvm::append_range(ySizes, outSpatial);
  return reshapeToSizes(b, loc, out, ySizes);
}

/// Convolution as im2col + matmul: the padded input `x` is copied into
/// columns col[n, g, (c, k...), (o...)] (a pure copy the vectorizer
/// handles, with no index arithmetic beyond the window maps; a 1x1
/// stride-1 window needs no copy), then out[n, g, f, o] = w[g, f, :] x
/// col[n, g, :, o] is one matmul per (n, g), which the targets tile into
/// register-blocked kernels.
Value im2colConv(OpBuilder &b, Location loc, Value x, Value w, Type accElement,
                 ArrayRef<OpFoldResult> outSpatial, int64_t group,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 MultiplyAdd multiplyAdd) {
  MLIRContext *ctx = b.getContext();
  SizeMath m(b, loc);
  auto pType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = pType.getElementType();
  int64_t s = pType.getRank() - 2;
  int64_t perGroup = pType.getDimSize(1) / group;
  int64_t filters = wType.getDimSize(0);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  SmallVector<OpFoldResult> xSizes = sizesOf(b, loc, x);
  OpFoldResult batch = xSizes[0];
  int64_t window = 1;
  OpFoldResult positions = m.constant(1);
  bool identity = true;
  for (int64_t i = 0; i < s; ++i) {
    window *= kernel[i];
    positions = m.mul(positions, outSpatial[i]);
    // A 1x1 stride-1 window reads the padded input as it is when its size
    // is the output's: equal constants, or an output computed from it.
    std::optional<int64_t> in = getConstantIntValue(xSizes[2 + i]),
                           out = getConstantIntValue(outSpatial[i]);
    identity &= kernel[i] == 1 && strides[i] == 1 && (out ? in == out : true);
  }
  SmallVector<OpFoldResult> gSizes = {batch, m.constant(group),
                                      m.constant(perGroup)};
  llvm::append_range(gSizes, ArrayRef(xSizes).drop_front(2));
  x = reshapeToSizes(b, loc, x, gSizes);
  SmallVector<OpFoldResult> colSizes = {
      batch, m.constant(group), m.constant(perGroup * window), positions};
  Value col;
  if (identity) {
    col = reshapeToSizes(b, loc, x, colSizes);
  } else {
    // dims: n, g, c, k_1..k_s, o_1..o_s (all parallel, output-ordered).
    int64_t dims = 3 + 2 * s;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> xExprs = {d(0), d(1), d(2)};
    SmallVector<OpFoldResult> fullSizes = {batch, m.constant(group),
                                           m.constant(perGroup)};
    for (int64_t k : kernel) {
      fullSizes.push_back(m.constant(k));
    }
    llvm::append_range(fullSizes, outSpatial);
    for (int64_t i = 0; i < s; ++i) {
      xExprs.push_back(d(3 + s + i) * strides[i] + d(3 + i) * dilations[i]);
    }
    RankedTensorType fullType = typeOfSizes(fullSizes, element);
    Value empty = emptyTensor(b, loc, fullType, fullSizes);
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
    col = reshapeToSizes(b, loc, col, colSizes);
  }
  w = reshapeTo(
      b, loc, w,
      RankedTensorType::get({group, filters / group, perGroup * window},
                            wType.getElementType()));
  SmallVector<OpFoldResult> oSizes = {batch, m.constant(group),
                                      m.constant(filters / group), positions};
  // The matmul's steps take the weights first.
  auto weightsFirst = [&](OpBuilder &nb, Location l, Value acc, Value weight,
                          Value input) {
    return multiplyAdd(nb, l, acc, input, weight);
  };
  Value out = buildMatmul(
      b, loc, w, col, typeOfSizes(oSizes, accElement), /*transA=*/false,
      /*transB=*/false, multiplyAdd ? MultiplyAdd(weightsFirst) : nullptr);
  SmallVector<OpFoldResult> ySizes = {batch, m.constant(filters)};
  llvm::append_range(ySizes, outSpatial);
  return reshapeToSizes(b, loc, out, ySizes);
}

} // namespace

Value convolve(OpBuilder &b, Location loc, Value x, Value w,
               RankedTensorType yType, const ConvGeometry &geometry,
               Value padValue, MultiplyAdd multiplyAdd) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t group = geometry.group;
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  WindowSizes sizes =
      windowSizes(b, loc, x, yType, kernel, geometry.strides,
                  geometry.dilations, geometry.pads, geometry.autoPad,
                  /*ceilMode=*/false);
  x = padSpatial(b, loc, x, sizes.begin, sizes.end, sizes.out, kernel,
                 geometry.strides, geometry.dilations, padValue);
  int64_t perGroup = xType.getDimSize(1) / group;
  return perGroup == 1 ? directConv(b, loc, x, w, yType.getElementType(),
                                    sizes.out, group, geometry.strides,
                                    geometry.dilations, multiplyAdd)
                       : im2colConv(b, loc, x, w, yType.getElementType(),
                                    sizes.out, group, geometry.strides,
                                    geometry.dilations, multiplyAdd);
}

namespace {

/// Whether every partial sum of `op` (a ConvInteger) is an integer below
/// 2^24 in magnitude, so that f32 computes it exactly: the window's length
/// times the largest |x - zx| (255) times the largest |w - zw| (read from
/// constant weights, else 255).
bool sumsExactInF32(ConvIntegerOp op, ConvIntegerOp::Adaptor adaptor) {
  auto wType = cast<RankedTensorType>(adaptor.getW().getType());
  if (!wType.hasStaticShape()) {
    return false;
  }
  int64_t window = wType.getNumElements() / wType.getDimSize(0);
  int64_t wMax = 255;
  bool wUnsigned = isUnsignedTensor(op.getW().getType());
  if (auto w = graph::constantInts(adaptor.getW(), wUnsigned)) {
    std::optional<SmallVector<int64_t>> zp = SmallVector<int64_t>{0};
    if (!isNone(op.getWZeroPoint())) {
      zp = graph::constantInts(adaptor.getWZeroPoint(),
                               isUnsignedTensor(op.getWZeroPoint().getType()));
    }
    if (zp) {
      // Zero points per tensor or per filter (the weights' dim 0).
      int64_t perFilter = int64_t(w->size()) / wType.getDimSize(0);
      wMax = 0;
      for (size_t i = 0; i < w->size(); ++i) {
        int64_t z = (*zp)[zp->size() == 1 ? 0 : int64_t(i) / perFilter];
        wMax = std::max<int64_t>(wMax, std::abs((*w)[i] - z));
      }
    }
  }
  return window * 255 * wMax < (int64_t(1) << 24);
}

/// `value` with each element converted to `element` (integers signed).
Value convertElements(OpBuilder &b, Location loc, Value value, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildElementwise(b, loc, type.clone(element), {value},
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return castScalar(nb, l, args[0], element, false,
                                              false);
                          });
}

/// Conv, and ConvInteger as a Conv over i32 values minus zero points (over
/// f32 values where every sum is exact there, so that the f32 kernels run
/// it: a depthwise or small integer convolution).
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
    if (!staticChannels(op, adaptor.getX(), adaptor.getW(),
                        op.getY().getType())) {
      return rewriter.notifyMatchFailure(
          op, "dynamic channel counts or weight shapes");
    }
    Location loc = op.getLoc();
    Value weights = adaptor.getW();
    Value input =
        withChannels(rewriter, op, adaptor.getX(),
                     cast<RankedTensorType>(weights.getType()).getDimSize(1) *
                         op.getGroup());
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
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    auto convType = yType;
    if constexpr (std::is_same_v<Op, ConvIntegerOp>) {
      if (yType.hasStaticShape() && sumsExactInF32(op, adaptor)) {
        Type f32 = rewriter.getF32Type();
        input = convertElements(rewriter, loc, input, f32);
        weights = convertElements(rewriter, loc, weights, f32);
        convType = yType.clone(f32);
      }
    }
    int64_t s = yType.getRank() - 2;
    int64_t filters = cast<RankedTensorType>(weights.getType()).getDimSize(0);
    ConvGeometry geometry{orOnes(op.getStrides(), s),
                          orOnes(op.getDilations(), s), op.getPads(),
                          op.getAutoPad(), op.getGroup()};
    Value padValue =
        scalarConstant(rewriter, loc, convType.getElementType(), 0);
    MultiplyAdd multiplyAdd = nullptr;
    if constexpr (std::is_same_v<Op, ConvOp>) {
      // Marked by infer-graph-bf16: two input channels rounded to bf16 per
      // i32, the weights packed so at compile time, f32 sums (PairDot.h).
      std::optional<SmallVector<float>> w;
      if (graph::markedBf16(op) && op.getGroup() == 1) {
        w = graph::constantFloats(weights); // a copy: only when marked
      }
      if (w) {
        auto wType = cast<RankedTensorType>(weights.getType());
        input = packBf16Pairs(rewriter, loc, input, 1);
        weights = bf16PairsConstant(rewriter, loc, *w, wType.getShape(), 1);
        padValue = arith::ConstantIntOp::create(rewriter, loc,
                                                rewriter.getI32Type(), 0);
        multiplyAdd = pairDotStep;
      }
    }
    Value out = convolve(rewriter, loc, input, weights, convType, geometry,
                         padValue, multiplyAdd);
    if (convType != yType) {
      out = convertElements(rewriter, loc, out, element);
    }
    out = castTo(rewriter, loc, out, yType);
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

} // namespace

void populateConvLoweringPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<ConvLowering<ConvOp>, ConvLowering<ConvIntegerOp>>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
