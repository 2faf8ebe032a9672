//===- PackedConv.cpp - QLinearConv over packed 8-bit lanes ---------------===//
//
// A QLinearConv with u8 activations and constant, symmetric s8 weights
// (what post-training quantizers emit, and what QDQ convolutions fold to)
// lowers to a convolution over i32 values that pack four input channels
// (ByteDot.h), so that the CPU kernels compute four products per lane with
// one vpdpbusd:
//
//   x4[n, c4, ...] = x[n, 4 c4 .. 4 c4 + 3, ...]   (channels padded with zx)
//   w4[f, c4, k..] = w[f, 4 c4 .. 4 c4 + 3, k..]   (packed at compile time)
//   acc = conv(x4, w4) with byte-dot steps; the padding is zx in every lane
//   y = saturate(round((acc + corr[f]) * mult[f]) + zy)
//
// with corr[f] = bias[f] - zx * sum(w[f]) and mult[f] = x_scale * w_scale[f]
// / y_scale folded at compile time: sum((x - zx) * w) + bias exactly, and
// the float steps of the generic lowering, so the result is bit-identical
// to it.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/quant/PackedConv.h"

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/PackedLanes.h"
#include "passes/lowering/nn/Windows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {

Value requantizePacked(OpBuilder &b, Location loc, RankedTensorType yType,
                       bool yUnsigned, Value acc, ArrayRef<int64_t> paramShape,
                       ArrayRef<int32_t> corr, ArrayRef<float> mult,
                       int64_t zy) {
  Type yElem = yType.getElementType();
  Value corrValues = i32Constant(
      b, loc, RankedTensorType::get(paramShape, b.getI32Type()), corr);
  auto multType = RankedTensorType::get(paramShape, b.getF32Type());
  Value multValues = arith::ConstantOp::create(
      b, loc, multType, DenseElementsAttr::get(multType, mult));
  return buildElementwise(
      b, loc, yType, {acc, corrValues, multValues},
      [&](OpBuilder &nb, Location l, ValueRange v) {
        Type f32 = nb.getF32Type();
        Value sum = arith::AddIOp::create(nb, l, v[0], v[1]);
        Value real = arith::MulFOp::create(
            nb, l, arith::SIToFPOp::create(nb, l, f32, sum), v[2]);
        Value q =
            arith::AddFOp::create(nb, l, math::RoundEvenOp::create(nb, l, real),
                                  scalarConstant(nb, l, f32, double(zy)));
        return saturate(nb, l, q, yElem, yUnsigned);
      });
}

LogicalResult lowerPackedQLinearConv(QLinearConvOp op,
                                     QLinearConvOp::Adaptor adaptor,
                                     ConversionPatternRewriter &rewriter) {
  auto xType = cast<RankedTensorType>(adaptor.getX().getType());
  auto wType = cast<RankedTensorType>(adaptor.getW().getType());
  auto yType = loweredTensorType(op.getY().getType());
  bool xUnsigned = isUnsignedTensor(op.getX().getType());
  bool yUnsigned = isUnsignedTensor(op.getY().getType());
  if (!xUnsigned || isUnsignedTensor(op.getW().getType()) ||
      !xType.getElementType().isInteger(8) ||
      !wType.getElementType().isInteger(8) || op.getGroup() != 1 ||
      xType.getRank() < 3) {
    return rewriter.notifyMatchFailure(op, "not u8 x s8, one group");
  }
  int64_t filters = wType.getDimSize(0), channels = wType.getDimSize(1);
  int64_t window = wType.getNumElements() / (filters * channels);
  auto w = graph::constantInts(adaptor.getW(), false);
  auto wZp = graph::constantInts(
      adaptor.getWZeroPoint(), isUnsignedTensor(op.getWZeroPoint().getType()));
  auto xZp = graph::constantInts(adaptor.getXZeroPoint(), true);
  auto yZp = graph::constantInts(adaptor.getYZeroPoint(), yUnsigned);
  auto xScale = graph::constantFloats(adaptor.getXScale());
  auto wScale = graph::constantFloats(adaptor.getWScale());
  auto yScale = graph::constantFloats(adaptor.getYScale());
  std::optional<SmallVector<int64_t>> bias;
  if (!isNone(op.getB())) {
    bias = graph::constantInts(adaptor.getB(), false);
  }
  if (!w || !wZp || !xZp || !yZp || !xScale || !wScale || !yScale ||
      (!isNone(op.getB()) && !bias) || xZp->size() != 1 || yZp->size() != 1 ||
      xScale->size() != 1 || yScale->size() != 1 ||
      (wScale->size() != 1 && int64_t(wScale->size()) != filters) ||
      llvm::any_of(*wZp, [](int64_t v) { return v != 0; })) {
    return rewriter.notifyMatchFailure(
        op, "weights, scales and zero points not constant, or asymmetric "
            "weights");
  }
  Location loc = op.getLoc();
  int64_t zx = xZp->front();
  int64_t groups = llvm::divideCeil(channels, kByteLanes);
  // Weights: lane j of w4[f, c4, k] is w[f, 4 c4 + j, k]; the correction
  // and the multiplier per filter.
  std::vector<int32_t> packed(filters * groups * window, 0);
  std::vector<int32_t> corr(filters);
  std::vector<float> mult(filters);
  for (int64_t f = 0; f < filters; ++f) {
    int64_t sum = 0;
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t k = 0; k < window; ++k) {
        int64_t v = (*w)[(f * channels + c) * window + k];
        sum += v;
        uint32_t byte = uint32_t(uint8_t(int8_t(v)));
        packed[(f * groups + c / kByteLanes) * window + k] |=
            byte << (8 * (c % kByteLanes));
      }
    }
    corr[f] = int32_t((bias ? (*bias)[f] : 0) - zx * sum);
    float scale = (*wScale)[wScale->size() == 1 ? 0 : f];
    mult[f] = (xScale->front() * scale) / yScale->front();
  }
  SmallVector<int64_t> w4Shape(wType.getShape());
  w4Shape[1] = groups;
  Value w4 = i32Constant(rewriter, loc,
                         RankedTensorType::get(w4Shape, rewriter.getI32Type()),
                         packed);
  Value x4 = packByteLanes(rewriter, loc, adaptor.getX(), 1,
                           arith::ConstantIntOp::create(rewriter, loc,
                                                        xType.getElementType(),
                                                        int64_t(int8_t(zx))));
  int64_t s = xType.getRank() - 2;
  ConvGeometry geometry{orOnes(op.getStrides(), s),
                        orOnes(op.getDilations(), s), op.getPads(),
                        op.getAutoPad(), 1};
  auto accType = RankedTensorType::get(yType.getShape(), rewriter.getI32Type());
  uint32_t lanes = uint32_t(uint8_t(zx)) * 0x01010101u;
  Value padValue = arith::ConstantIntOp::create(
      rewriter, loc, rewriter.getI32Type(), int64_t(int32_t(lanes)));
  Value acc = convolve(
      rewriter, loc, x4, w4, accType, geometry, padValue,
      [](OpBuilder &b, Location l, Value sum, Value input, Value weight) {
        return buildByteDot(b, l, sum, input, /*xUnsigned=*/true, weight,
                            /*yUnsigned=*/false);
      });
  SmallVector<int64_t> perFilter(yType.getRank(), 1);
  perFilter[1] = filters;
  Value y = requantizePacked(rewriter, loc, yType, yUnsigned, acc, perFilter,
                             corr, mult, yZp->front());
  rewriter.replaceOp(op, y);
  return success();
}

} // namespace infer::lowering
