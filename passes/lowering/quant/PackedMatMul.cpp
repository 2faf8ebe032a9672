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
// A MatMulInteger of the same operands (what quantize_dynamic writes, and
// what QDQ MatMuls with a float output fold to) is the same product plus
// the correction, in i32.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/quant/PackedConv.h"

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/TensorBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {

namespace {

/// sum_k a[.., m, k] * b[k, n] over i32 words packing four of K (a's
/// padding lanes hold its zero point `za`, an i8 value, b's are 0, so they
/// add nothing), for u8 `a` and the constant s8 values `b` of `depth` x
/// `columns`; `columnSums` gets sum_k b[k, n].
Value packedProduct(OpBuilder &rewriter, Location loc, Value a,
                    ArrayRef<int64_t> b, int64_t depth, int64_t columns,
                    Value za, ArrayRef<int64_t> resultShape,
                    SmallVector<int64_t> &columnSums) {
  int64_t groups = llvm::divideCeil(depth, kByteLanes);
  // b4[k4, n]: lane j is b[4 k4 + j, n]; rows past K are 0.
  std::vector<int32_t> packed(groups * columns, 0);
  columnSums.assign(columns, 0);
  for (int64_t k = 0; k < depth; ++k) {
    for (int64_t n = 0; n < columns; ++n) {
      int64_t v = b[k * columns + n];
      columnSums[n] += v;
      packed[(k / kByteLanes) * columns + n] |= uint32_t(uint8_t(int8_t(v)))
                                                << (8 * (k % kByteLanes));
    }
  }
  Value b4 = i32Constant(
      rewriter, loc,
      RankedTensorType::get({groups, columns}, rewriter.getI32Type()), packed);
  auto aType = cast<RankedTensorType>(a.getType());
  Value a4 = packByteLanes(rewriter, loc, a, aType.getRank() - 1, za);
  auto accType = RankedTensorType::get(resultShape, rewriter.getI32Type());
  return buildMatmul(
      rewriter, loc, a4, b4, accType, /*transA=*/false, /*transB=*/false,
      [](OpBuilder &nb, Location l, Value sum, Value x, Value y) {
        return buildByteDot(nb, l, sum, x, /*xUnsigned=*/true, y,
                            /*yUnsigned=*/false);
      });
}

/// Whether `a` is u8 and `b` s8 of rank 2, `a` of rank >= 2.
bool isU8TimesS8Matrix(Value a, Value b) {
  auto aType = dyn_cast<RankedTensorType>(a.getType());
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  return aType && bType && isUnsignedTensor(aType) &&
         aType.getElementType().isInteger(8) && !isUnsignedTensor(bType) &&
         bType.getElementType().isInteger(8) && aType.getRank() >= 2 &&
         bType.getRank() == 2 && bType.hasStaticShape();
}

} // namespace

LogicalResult lowerPackedQLinearMatMul(QLinearMatMulOp op,
                                       QLinearMatMulOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter) {
  auto bType = cast<RankedTensorType>(adaptor.getB().getType());
  auto yType = loweredTensorType(op.getY().getType());
  bool yUnsigned = isUnsignedTensor(op.getY().getType());
  if (!isU8TimesS8Matrix(op.getA(), op.getB())) {
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
  SmallVector<int64_t> sums;
  Value acc = packedProduct(rewriter, loc, adaptor.getA(), *b, depth, columns,
                            arith::ConstantIntOp::create(rewriter, loc,
                                                         rewriter.getI8Type(),
                                                         int64_t(int8_t(za))),
                            yType.getShape(), sums);
  std::vector<int32_t> corr(columns);
  std::vector<float> mult(columns);
  for (int64_t n = 0; n < columns; ++n) {
    corr[n] = int32_t(-za * sums[n]);
    float scale = (*bScale)[bScale->size() == 1 ? 0 : n];
    mult[n] = (aScale->front() * scale) / yScale->front();
  }
  Value y = requantizePacked(rewriter, loc, yType, yUnsigned, acc, {columns},
                             corr, mult, yZp->front());
  rewriter.replaceOp(op, y);
  return success();
}

LogicalResult lowerPackedMatMulInteger(MatMulIntegerOp op,
                                       MatMulIntegerOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter) {
  auto declared = dyn_cast<RankedTensorType>(op.getY().getType());
  if (!isU8TimesS8Matrix(op.getA(), op.getB()) || !declared ||
      !declared.hasStaticShape() ||
      !cast<RankedTensorType>(op.getA().getType()).hasStaticShape()) {
    return rewriter.notifyMatchFailure(op, "not u8 x 2-d s8, static");
  }
  auto yType = loweredTensorType(declared);
  auto bType = cast<RankedTensorType>(adaptor.getB().getType());
  int64_t depth = bType.getDimSize(0), columns = bType.getDimSize(1);
  auto b = graph::constantInts(adaptor.getB(), false);
  std::optional<SmallVector<int64_t>> bZp = SmallVector<int64_t>{0};
  if (!isNone(op.getBZeroPoint())) {
    bZp = graph::constantInts(adaptor.getBZeroPoint(), false);
  }
  auto zpType = isNone(op.getAZeroPoint())
                    ? RankedTensorType()
                    : cast<RankedTensorType>(adaptor.getAZeroPoint().getType());
  if (!b || !bZp || llvm::any_of(*bZp, [](int64_t v) { return v != 0; }) ||
      (zpType && (!zpType.hasStaticShape() || zpType.getNumElements() != 1))) {
    return rewriter.notifyMatchFailure(
        op, "B not constant, B asymmetric, or A's zero point not a scalar");
  }
  Location loc = op.getLoc();
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
  // A's zero point: a constant (folded into the correction), or read at
  // run time (DynamicQuantizeLinear's).
  std::optional<SmallVector<int64_t>> zaConst = SmallVector<int64_t>{0};
  Value zpTensor, za;
  if (zpType) {
    zaConst = graph::constantInts(adaptor.getAZeroPoint(), true);
    zpTensor = perAxis(rewriter, loc, adaptor.getAZeroPoint(), 0, 1);
  }
  if (zaConst) {
    za = arith::ConstantIntOp::create(rewriter, loc, i8,
                                      int64_t(int8_t(zaConst->front())));
  } else {
    za = tensor::ExtractOp::create(rewriter, loc, zpTensor, ValueRange{});
  }
  SmallVector<int64_t> sums;
  Value acc = packedProduct(rewriter, loc, adaptor.getA(), *b, depth, columns,
                            za, yType.getShape(), sums);
  auto columnType = RankedTensorType::get({columns}, i32);
  std::vector<int32_t> corr(columns);
  for (int64_t n = 0; n < columns; ++n) {
    // With a run-time zero point, the column sums (it multiplies them).
    corr[n] = int32_t(zaConst ? -zaConst->front() * sums[n] : sums[n]);
  }
  SmallVector<Value> inputs = {acc,
                               i32Constant(rewriter, loc, columnType, corr)};
  if (!zaConst) {
    inputs.push_back(zpTensor);
  }
  // sum_k (a - za) b = acc - za * sum_k b[k, n], exactly.
  rewriter.replaceOp(
      op, buildElementwise(
              rewriter, loc, yType, inputs,
              [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                if (v.size() == 2) {
                  return arith::AddIOp::create(nb, l, v[0], v[1]);
                }
                Value zp = arith::ExtUIOp::create(nb, l, i32, v[2]);
                return arith::SubIOp::create(
                    nb, l, v[0], arith::MulIOp::create(nb, l, zp, v[1]));
              }));
  return success();
}

} // namespace infer::lowering
