//===- QuantLowering.cpp - ONNX quantization ops -> linalg ----------------===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// QLinearMatMul and QLinearConv with ONNX's integer semantics: round half to
// even, saturate to the target type, i32 accumulation. (The int8 lowering of
// the later quantization work replaces these with fixed-point requantization.)
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/quant/PackedConv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {

Value perAxis(OpBuilder &b, Location loc, Value param, int64_t axis,
              int64_t rank) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getRank() == 0 || type.getNumElements() == 1) {
    return reshapeTo(b, loc, param,
                     RankedTensorType::get({}, type.getElementType()));
  }
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = type.getNumElements();
  return reshapeTo(b, loc, param,
                   RankedTensorType::get(shape, type.getElementType()));
}

Value widenMinusZp(OpBuilder &b, Location loc, Value x, bool xUnsigned,
                   Value zp, bool zpUnsigned, int64_t axis) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto type = RankedTensorType::get(xType.getShape(), b.getI32Type());
  SmallVector<Value> inputs = {x};
  if (zp) {
    inputs.push_back(perAxis(b, loc, zp, axis, xType.getRank()));
  }
  return buildElementwise(
      b, loc, type, inputs, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value v = castScalar(nb, l, a[0], nb.getI32Type(), xUnsigned, false);
        if (a.size() > 1) {
          v = arith::SubIOp::create(
              nb, l, v,
              castScalar(nb, l, a[1], nb.getI32Type(), zpUnsigned, false));
        }
        return v;
      });
}

Value saturate(OpBuilder &b, Location l, Value v, Type to, bool isUnsigned) {
  unsigned w = to.getIntOrFloatBitWidth();
  double lo = isUnsigned ? 0 : -std::ldexp(1.0, w - 1);
  double hi = isUnsigned ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
  Type f = v.getType();
  v = arith::MaximumFOp::create(b, l, v, scalarConstant(b, l, f, lo));
  v = arith::MinimumFOp::create(b, l, v, scalarConstant(b, l, f, hi));
  return isUnsigned ? arith::FPToUIOp::create(b, l, to, v).getResult()
                    : arith::FPToSIOp::create(b, l, to, v).getResult();
}

namespace {

Value toF32(OpBuilder &b, Location l, Value v, bool isUnsigned) {
  return castScalar(b, l, v, b.getF32Type(), isUnsigned, false);
}

/// The QLinear output of i32 accumulator `acc`: round-half-even(acc *
/// aScale * bScale / yScale) + yZeroPoint, saturated to `yElem`.
Value requantize(OpBuilder &b, Location l, Value acc, Value aScale,
                 Value bScale, Value yScale, Value yZeroPoint, Type yElem,
                 bool yUnsigned) {
  Value real = arith::MulFOp::create(
      b, l, toF32(b, l, acc, false),
      arith::DivFOp::create(b, l, arith::MulFOp::create(b, l, aScale, bScale),
                            yScale));
  Value q = math::RoundEvenOp::create(b, l, real);
  q = arith::AddFOp::create(b, l, q, toF32(b, l, yZeroPoint, yUnsigned));
  return saturate(b, l, q, yElem, yUnsigned);
}

/// Whether a scale and an optional zero point have static shapes (perAxis
/// reshapes them by their element count).
bool hasStaticParams(Value scale, Value zeroPoint) {
  auto isStatic = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.hasStaticShape();
  };
  return isStatic(scale) && (isNone(zeroPoint) || isStatic(zeroPoint));
}

struct QuantizeLowering final : OpConversionPattern<QuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Any data sizes (the generic variant); scales and zero points static.
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true)) ||
        !hasStaticParams(op.getYScale(), op.getYZeroPoint())) {
      return failure();
    }
    if (op.getBlockSize() != 0) {
      return rewriter.notifyMatchFailure(op, "blocked quantization");
    }
    auto outType = loweredAnyShapeType(op.getY().getType());
    if (!isa<IntegerType>(outType.getElementType())) {
      return rewriter.notifyMatchFailure(op, "float8 / int4 outputs");
    }
    Location loc = op.getLoc();
    int64_t rank = outType.getRank();
    int64_t axis = rank ? *normalizeAxis(op.getAxis(), rank) : 0;
    bool outUnsigned = isUnsignedTensor(op.getY().getType());
    SmallVector<Value> inputs = {
        adaptor.getX(),
        perAxis(rewriter, loc, adaptor.getYScale(), axis, rank)};
    bool hasZp = !isNone(op.getYZeroPoint());
    if (hasZp) {
      inputs.push_back(
          perAxis(rewriter, loc, adaptor.getYZeroPoint(), axis, rank));
    }
    Type outElem = outType.getElementType();
    Value y = buildElementwise(rewriter, loc, outType, inputs,
                               [&](OpBuilder &b, Location l, ValueRange a) {
                                 Value x = toF32(b, l, a[0], false);
                                 Value s = toF32(b, l, a[1], false);
                                 Value v = math::RoundEvenOp::create(
                                     b, l, arith::DivFOp::create(b, l, x, s));
                                 if (hasZp) {
                                   v = arith::AddFOp::create(
                                       b, l, v, toF32(b, l, a[2], outUnsigned));
                                 }
                                 return saturate(b, l, v, outElem, outUnsigned);
                               });
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct DequantizeLowering final : OpConversionPattern<DequantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DequantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Any data sizes (the generic variant); scales and zero points static.
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true)) ||
        !hasStaticParams(op.getXScale(), op.getXZeroPoint())) {
      return failure();
    }
    if (op.getBlockSize() != 0) {
      return rewriter.notifyMatchFailure(op, "blocked quantization");
    }
    auto outType = loweredAnyShapeType(op.getY().getType());
    Location loc = op.getLoc();
    int64_t rank = outType.getRank();
    int64_t axis = rank ? *normalizeAxis(op.getAxis(), rank) : 0;
    bool inUnsigned = isUnsignedTensor(op.getX().getType());
    if (!isa<IntegerType>(cast<RankedTensorType>(adaptor.getX().getType())
                              .getElementType())) {
      return rewriter.notifyMatchFailure(op, "float8 inputs");
    }
    SmallVector<Value> inputs = {
        adaptor.getX(),
        perAxis(rewriter, loc, adaptor.getXScale(), axis, rank)};
    bool hasZp = !isNone(op.getXZeroPoint());
    if (hasZp) {
      inputs.push_back(
          perAxis(rewriter, loc, adaptor.getXZeroPoint(), axis, rank));
    }
    Type outElem = outType.getElementType();
    Value y = buildElementwise(
        rewriter, loc, outType, inputs,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value x = toF32(b, l, a[0], inUnsigned);
          if (hasZp) {
            x = arith::SubFOp::create(b, l, x, toF32(b, l, a[2], inUnsigned));
          }
          Value v = arith::MulFOp::create(b, l, x, toF32(b, l, a[1], false));
          return castScalar(b, l, v, outElem, false, false);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// Where DynamicQuantizeLinear's range splits x (static) into rows: the
/// number of leading dims whose product is the row count, the trailing
/// ones making rows of kMinRowElements or more, when at least two rows
/// are left; else none (one reduction over everything).
std::optional<int64_t> rowDims(RankedTensorType type) {
  constexpr int64_t kMinRowElements = 256;
  if (!type.hasStaticShape()) {
    return std::nullopt;
  }
  int64_t row = 1;
  for (int64_t d = type.getRank() - 1; d > 0; --d) {
    row *= type.getDimSize(d);
    if (row >= kMinRowElements) {
      return type.getNumElements() / row >= 2 ? std::optional<int64_t>(d)
                                              : std::nullopt;
    }
  }
  return std::nullopt;
}

struct DynamicQuantizeLowering final
    : OpConversionPattern<DynamicQuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Dynamic dims are fine: the reductions and the elementwise quantization
    // take their sizes from x.
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    Type f32 = rewriter.getF32Type(), u8 = rewriter.getI8Type();
    auto all = llvm::to_vector(llvm::seq<int64_t>(0, xType.getRank()));
    Value zero = scalarConstant(rewriter, loc, f32, 0);
    // The range always includes 0. Both ends in one pass over x.
    auto minimum = [](OpBuilder &b, Location l, Value acc, Value v) {
      return arith::MinimumFOp::create(b, l, acc, v).getResult();
    };
    auto maximum = [](OpBuilder &b, Location l, Value acc, Value v) {
      return arith::MaximumFOp::create(b, l, acc, v).getResult();
    };
    SmallVector<Value> range;
    if (std::optional<int64_t> lead = rowDims(xType)) {
      // Each row's range first (rows in parallel on the CPU), then across
      // rows: min and max are the same in any order.
      SmallVector<ReassociationIndices> groups(2);
      groups[0] = llvm::to_vector(llvm::seq<int64_t>(0, *lead));
      groups[1] = llvm::to_vector(llvm::seq<int64_t>(*lead, xType.getRank()));
      Value rows = tensor::CollapseShapeOp::create(rewriter, loc, x, groups);
      SmallVector<Value> ends = buildReductions(rewriter, loc, rows, {1}, false,
                                                zero, {minimum, maximum});
      range = {
          buildReduction(rewriter, loc, ends[0], {0}, false, zero, minimum),
          buildReduction(rewriter, loc, ends[1], {0}, false, zero, maximum)};
    } else {
      range = buildReductions(rewriter, loc, x, all, false, zero,
                              {minimum, maximum});
    }
    Value min = range[0], max = range[1];
    auto scalarF = RankedTensorType::get({}, f32);
    Value scale = buildElementwise(
        rewriter, loc, scalarF, {min, max},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value range = arith::SubFOp::create(b, l, a[1], a[0]);
          return arith::DivFOp::create(b, l, range,
                                       scalarConstant(b, l, f32, 255))
              .getResult();
        });
    auto scalarU = RankedTensorType::get({}, u8);
    Value zp = buildElementwise(
        rewriter, loc, scalarU, {min, scale},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value v = arith::DivFOp::create(
              b, l, arith::NegFOp::create(b, l, a[0]), a[1]);
          return saturate(b, l, math::RoundEvenOp::create(b, l, v), u8, true);
        });
    auto yType = RankedTensorType::get(xType.getShape(), u8);
    Value y = buildElementwise(
        rewriter, loc, yType, {x, scale, zp},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value v = math::RoundEvenOp::create(
              b, l, arith::DivFOp::create(b, l, a[0], a[1]));
          v = arith::AddFOp::create(b, l, v, toF32(b, l, a[2], true));
          return saturate(b, l, v, u8, true);
        });
    rewriter.replaceOp(op, {y, scale, zp});
    return success();
  }
};

struct MatMulIntegerLowering final : OpConversionPattern<MatMulIntegerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatMulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    // u8 x constant s8: four products per i32 lane (PackedMatMul.cpp).
    if (succeeded(lowerPackedMatMulInteger(op, adaptor, rewriter))) {
      return success();
    }
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(adaptor.getA().getType());
    auto bType = cast<RankedTensorType>(adaptor.getB().getType());
    if (aType.getRank() < 2 || bType.getRank() < 2) {
      return rewriter.notifyMatchFailure(op, "1-d operands");
    }
    // In the generic variant: rows of A (a dynamic batch or sequence) sized
    // at run time, B (the weights) static.
    auto yType = loweredAnyShapeType(op.getY().getType());
    if (!yType.hasStaticShape() &&
        (!bType.hasStaticShape() || aType.isDynamicDim(aType.getRank() - 1) ||
         aType.getRank() != yType.getRank())) {
      return rewriter.notifyMatchFailure(op, "dynamic dims beyond A's rows");
    }
    Value a = widenMinusZp(
        rewriter, loc, adaptor.getA(), isUnsignedTensor(op.getA().getType()),
        isNone(op.getAZeroPoint()) ? Value() : adaptor.getAZeroPoint(),
        isUnsignedTensor(op.getAZeroPoint().getType()), aType.getRank() - 2);
    Value b = widenMinusZp(
        rewriter, loc, adaptor.getB(), isUnsignedTensor(op.getB().getType()),
        isNone(op.getBZeroPoint()) ? Value() : adaptor.getBZeroPoint(),
        isUnsignedTensor(op.getBZeroPoint().getType()), bType.getRank() - 1);
    rewriter.replaceOp(op, buildMatmul(rewriter, loc, a, b, yType));
    return success();
  }
};

struct QLinearMatMulLowering final : OpConversionPattern<QLinearMatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QLinearMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    // u8 x constant s8: four products per i32 lane (PackedMatMul.cpp).
    if (succeeded(lowerPackedQLinearMatMul(op, adaptor, rewriter))) {
      return success();
    }
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(adaptor.getA().getType());
    auto bType = cast<RankedTensorType>(adaptor.getB().getType());
    auto yType = loweredTensorType(op.getY().getType());
    if (aType.getRank() < 2 || bType.getRank() < 2) {
      return rewriter.notifyMatchFailure(op, "1-d operands");
    }
    Value a = widenMinusZp(
        rewriter, loc, adaptor.getA(), isUnsignedTensor(op.getA().getType()),
        adaptor.getAZeroPoint(), isUnsignedTensor(op.getAZeroPoint().getType()),
        aType.getRank() - 2);
    Value b = widenMinusZp(
        rewriter, loc, adaptor.getB(), isUnsignedTensor(op.getB().getType()),
        adaptor.getBZeroPoint(), isUnsignedTensor(op.getBZeroPoint().getType()),
        bType.getRank() - 1);
    auto accType =
        RankedTensorType::get(yType.getShape(), rewriter.getI32Type());
    Value acc = buildMatmul(rewriter, loc, a, b, accType);
    bool yUnsigned = isUnsignedTensor(op.getY().getType());
    Type yElem = yType.getElementType();
    auto scalar = [&](Value v) {
      auto t = cast<RankedTensorType>(v.getType());
      return reshapeTo(rewriter, loc, v,
                       RankedTensorType::get({}, t.getElementType()));
    };
    Value y = buildElementwise(
        rewriter, loc, yType,
        {acc, scalar(adaptor.getAScale()),
         perAxis(rewriter, loc, adaptor.getBScale(), yType.getRank() - 1,
                 yType.getRank()),
         scalar(adaptor.getYScale()), scalar(adaptor.getYZeroPoint())},
        [&](OpBuilder &nb, Location l, ValueRange v) {
          return requantize(nb, l, v[0], v[1], v[2], v[3], v[4], yElem,
                            yUnsigned);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// QLinearConv as a ConvInteger (i32 accumulation, lowered by the
/// convolution pattern) plus the bias, requantized with per-output-channel
/// weight scales.
struct QLinearConvLowering final : OpConversionPattern<QLinearConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QLinearConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    // u8 x constant s8: four products per i32 lane (PackedConv.cpp).
    if (succeeded(lowerPackedQLinearConv(op, adaptor, rewriter))) {
      return success();
    }
    Location loc = op.getLoc();
    auto yType = loweredTensorType(op.getY().getType());
    int64_t rank = yType.getRank();
    auto accType =
        RankedTensorType::get(yType.getShape(), rewriter.getI32Type());
    // The integer convolution takes the same attributes.
    OperationState state(loc, ConvIntegerOp::getOperationName());
    state.addOperands(
        {op.getX(), op.getW(), op.getXZeroPoint(), op.getWZeroPoint()});
    state.addTypes(accType);
    state.addAttributes(op->getAttrs());
    Value acc = rewriter.create(state)->getResult(0);
    SmallVector<Value> inputs = {
        acc, perAxis(rewriter, loc, adaptor.getXScale(), 1, rank),
        perAxis(rewriter, loc, adaptor.getWScale(), 1, rank),
        perAxis(rewriter, loc, adaptor.getYScale(), 1, rank),
        perAxis(rewriter, loc, adaptor.getYZeroPoint(), 1, rank)};
    bool bias = !isNone(op.getB());
    if (bias) {
      inputs.push_back(perAxis(rewriter, loc, adaptor.getB(), 1, rank));
    }
    bool yUnsigned = isUnsignedTensor(op.getY().getType());
    Type yElem = yType.getElementType();
    Value y = buildElementwise(
        rewriter, loc, yType, inputs,
        [&](OpBuilder &nb, Location l, ValueRange v) {
          Value sum = bias
                          ? arith::AddIOp::create(nb, l, v[0], v[5]).getResult()
                          : v[0];
          return requantize(nb, l, sum, v[1], v[2], v[3], v[4], yElem,
                            yUnsigned);
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void populateQuantLoweringPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns
      .add<QuantizeLowering, DequantizeLowering, DynamicQuantizeLowering,
           MatMulIntegerLowering, QLinearMatMulLowering, QLinearConvLowering>(
          converter, patterns.getContext());
}

} // namespace infer::lowering
