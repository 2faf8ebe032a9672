//===- PackedMatMul.cpp - QLinearMatMul over packed 8-bit lanes -----------===//
//
// A QLinearMatMul whose B is a constant 2-d s8 matrix with zero points 0
// (a linear layer quantized by a post-training quantizer; the QDQ form
// folds to it) lowers as the packed convolutions do (PackedConv.cpp): A's
// last dimension packed four u8 to an i32, B packed the same way along K
// at compile time, one byte-dot step per four products, then
//
//   y = saturate(round((acc + corr[n]) * mult[n]) + zy)
//
// with corr[n] = -za * sum_k b[k, n] and mult[n] = a_scale * b_scale[n] /
// y_scale (per column or per tensor), folded at compile time: the same
// integers and float steps as the generic lowering, so the same result.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/quant/PackedConv.h"

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {

LogicalResult lowerPackedQLinearMatMul(QLinearMatMulOp op,
                                       QLinearMatMulOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter) {
  auto aType = cast<RankedTensorType>(adaptor.getA().getType());
  auto bType = cast<RankedTensorType>(adaptor.getB().getType());
  auto yType = loweredTensorType(op.getY().getType());
  bool yUnsigned = isUnsignedTensor(op.getY().getType());
  if (!isUnsignedTensor(op.getA().getType()) ||
      isUnsignedTensor(op.getB().getType()) ||
      !aType.getElementType().isInteger(8) ||
      !bType.getElementType().isInteger(8) || aType.getRank() < 2 ||
      bType.getRank() != 2) {
    return rewriter.notifyMatchFailure(op, "not u8 x 2-d s8");
  }
  int64_t depth = bType.getDimSize(0), columns = bType.getDimSize(1);
  auto b = graph::constantInts(adaptor.getB(), false);
  auto bZp = graph::constantInts(adaptor.getBZeroPoint(), false);
  auto aZp = graph::constantInts(adaptor.getAZeroPoint(), true);
  auto yZp = graph::constantInts(adaptor.getYZeroPoint(), yUnsigned);
  auto aScale = graph::constantFloats(adaptor.getAScale());
  auto bScale = graph::constantFloats(adaptor.getBScale());
  auto yScale = graph::constantFloats(adaptor.getYScale());
  if (!b || !bZp || !aZp || !yZp || !aScale || !bScale || !yScale ||
      aZp->size() != 1 || yZp->size() != 1 || aScale->size() != 1 ||
      yScale->size() != 1 ||
      (bScale->size() != 1 && int64_t(bScale->size()) != columns) ||
      llvm::any_of(*bZp, [](int64_t v) { return v != 0; })) {
    return rewriter.notifyMatchFailure(
        op, "B, scales and zero points not constant, or asymmetric B");
  }
  Location loc = op.getLoc();
  int64_t za = aZp->front();
  int64_t groups = llvm::divideCeil(depth, kByteLanes);
  // b4[k4, n]: lane j is b[4 k4 + j, n]; rows past K are 0.
  std::vector<int32_t> packed(groups * columns, 0), corr(columns);
  std::vector<float> mult(columns);
  for (int64_t n = 0; n < columns; ++n) {
    int64_t sum = 0;
    for (int64_t k = 0; k < depth; ++k) {
      int64_t v = (*b)[k * columns + n];
      sum += v;
      packed[(k / kByteLanes) * columns + n] |= uint32_t(uint8_t(int8_t(v)))
                                                << (8 * (k % kByteLanes));
    }
    corr[n] = int32_t(-za * sum);
    float scale = (*bScale)[bScale->size() == 1 ? 0 : n];
    mult[n] = (aScale->front() * scale) / yScale->front();
  }
  Value b4 = i32Constant(
      rewriter, loc,
      RankedTensorType::get({groups, columns}, rewriter.getI32Type()), packed);
  Value a4 = packLanes(rewriter, loc, adaptor.getA(), aType.getRank() - 1, za);
  auto accType = RankedTensorType::get(yType.getShape(), rewriter.getI32Type());
  Value acc = buildMatmul(
      rewriter, loc, a4, b4, accType, /*transA=*/false, /*transB=*/false,
      [](OpBuilder &nb, Location l, Value sum, Value x, Value y) {
        return buildByteDot(nb, l, sum, x, /*xUnsigned=*/true, y,
                            /*yUnsigned=*/false);
      });
  Value corrValues = i32Constant(
      rewriter, loc, RankedTensorType::get({columns}, rewriter.getI32Type()),
      corr);
  auto multType = RankedTensorType::get({columns}, rewriter.getF32Type());
  Value multValues = arith::ConstantOp::create(
      rewriter, loc, multType,
      DenseElementsAttr::get(multType, ArrayRef<float>(mult)));
  Value y = requantizePacked(rewriter, loc, yType, yUnsigned, acc, corrValues,
                             multValues, yZp->front());
  rewriter.replaceOp(op, y);
  return success();
}

} // namespace infer::lowering
