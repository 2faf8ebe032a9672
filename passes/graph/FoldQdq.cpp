//===- FoldQdq.cpp - QDQ convolutions and matmuls folded into QLinear ops
//--===//
//
// Quantizers (ONNX Runtime's quantize_static, PyTorch's QDQ export) write
// an int8 convolution as
//
//   DequantizeLinear(xq) -> Conv <- DequantizeLinear(wq) [, DQ(bq)]
//                            |
//                       QuantizeLinear -> yq
//
// which means "run this convolution in integers": the same computation as
// QLinearConv(xq, wq, bq) up to the float rounding of the requantization.
// The fold makes it one QLinearConv, which the int8 lowering runs over
// packed 8-bit lanes. It applies when the input is quantized per tensor,
// the weights (and bias) are constants, quantized per output channel
// (axis 0) or per tensor, the bias is i32 with zero points 0 and a scale
// equal to x_scale * w_scale (what every quantizer writes; anything else
// would change the result), the output is quantized per tensor and the
// Conv's result has no other user. A zero bias needs no quantization (torch
// shares one among layers through Identity nodes).
//
// The same holds for the other QDQ forms whose float computation would sum
// in an order each target picks: a Gemm (MatMulInteger plus the i32 bias,
// requantized) and a GlobalAveragePool (an exact i32 sum, one multiply):
// in integers every target gives the same answer.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/graph/Passes.h"
#include "passes/graph/QdqTables.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_FOLDQDQPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

namespace {

using namespace infer::graph;

bool isScalar(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

bool allZero(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  std::optional<SmallVector<int64_t>> values =
      type ? constantInts(v, type.getElementType().isUnsignedInteger())
           : std::nullopt;
  return values && llvm::all_of(*values, [](int64_t x) { return x == 0; });
}

/// Whether `dq` dequantizes per tensor, or per channel along dim 0 of a
/// tensor whose dim 0 has `channels` entries.
bool perTensorOrAxis0(DequantizeLinearOp dq, int64_t channels) {
  if (dq.getBlockSize() != 0) {
    return false;
  }
  if (isScalar(dq.getXScale())) {
    return true;
  }
  auto x = cast<RankedTensorType>(dq.getX().getType());
  auto scale = cast<RankedTensorType>(dq.getXScale().getType());
  int64_t axis = dq.getAxis() < 0 ? dq.getAxis() + x.getRank() : dq.getAxis();
  return axis == 0 && scale.getRank() == 1 && scale.hasStaticShape() &&
         scale.getDimSize(0) == channels;
}

bool is8Bit(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getElementType().isInteger(8);
}

/// f32 scales (QLinearConv's lowering takes no others).
bool allF32(ValueRange scales) {
  return llvm::all_of(scales, [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.getElementType().isF32();
  });
}

/// A zero point for `dq`: its own, or 0 of its input's type when it has
/// none (the QLinear ops need one).
Value zeroPointOf(DequantizeLinearOp dq, PatternRewriter &rewriter) {
  if (!isNone(dq.getXZeroPoint())) {
    return dq.getXZeroPoint();
  }
  Type element = getElementTypeOrSelf(dq.getX());
  auto zpType = RankedTensorType::get({}, element);
  return ConstantOp::create(
      rewriter, dq.getLoc(),
      DenseElementsAttr::get(zpType, rewriter.getIntegerAttr(element, 0)));
}

/// Whether the bias `v` is zeros, as a float constant or dequantized from
/// integer zeros, possibly through Identity nodes: torch's exporter shares
/// one zero bias among layers through Identity nodes, and quantizers then
/// quantize it at the first layer's scale only. Adding it is adding
/// nothing, in integers as in floats, whatever its scale.
bool isZeroBias(Value v) {
  while (auto identity = v.getDefiningOp<IdentityOp>()) {
    v = identity->getOperand(0);
  }
  if (auto dq = v.getDefiningOp<DequantizeLinearOp>()) {
    auto type = dyn_cast<RankedTensorType>(dq.getX().getType());
    return type && type.getElementType().isInteger(32) &&
           (isNone(dq.getXZeroPoint()) || allZero(dq.getXZeroPoint())) &&
           allZero(dq.getX());
  }
  std::optional<SmallVector<float>> values = constantFloats(v);
  return values && llvm::all_of(*values, [](float x) { return x == 0.0f; });
}

/// Whether `q` quantizes the only result of `producer` per tensor to 8 bits
/// (what the QLinear ops write).
bool isPerTensorOutput(QuantizeLinearOp q, Operation *producer) {
  return producer && producer->hasOneUse() && q.getBlockSize() == 0 &&
         isScalar(q.getYScale()) && !isNone(q.getYZeroPoint()) &&
         isScalar(q.getYZeroPoint()) && is8Bit(q.getY());
}

/// The operands of an integer MatMul: A dequantized per tensor from 8 bits,
/// B a constant 2-d 8-bit matrix dequantized per tensor or per column (axis
/// 1) with constant f32 scales. Null when `matmul` has no such operands.
std::pair<DequantizeLinearOp, DequantizeLinearOp>
quantizedMatMulOperands(MatMulOp matmul) {
  auto da = matmul.getA().getDefiningOp<DequantizeLinearOp>();
  auto db = matmul.getB().getDefiningOp<DequantizeLinearOp>();
  if (!da || !db || da.getBlockSize() != 0 || db.getBlockSize() != 0 ||
      !isScalar(da.getXScale()) || !is8Bit(da.getX()) || !is8Bit(db.getX()) ||
      !matchPattern(db.getX(), m_Constant()) ||
      !matchPattern(db.getXScale(), m_Constant()) ||
      !allF32({da.getXScale(), db.getXScale()})) {
    return {};
  }
  auto bType = cast<RankedTensorType>(db.getX().getType());
  if (!bType.hasStaticShape() || bType.getRank() != 2) {
    return {};
  }
  if (!isScalar(db.getXScale())) {
    auto scale = cast<RankedTensorType>(db.getXScale().getType());
    int64_t axis = db.getAxis() < 0 ? db.getAxis() + 2 : db.getAxis();
    if (axis != 1 || scale.getRank() != 1 ||
        scale.getDimSize(0) != bType.getDimSize(1)) {
      return {};
    }
  }
  return {da, db};
}

struct FoldQdqConv final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto conv = q.getX().getDefiningOp<ConvOp>();
    if (!isPerTensorOutput(q, conv)) {
      return failure();
    }
    auto dx = conv.getX().getDefiningOp<DequantizeLinearOp>();
    auto dw = conv.getW().getDefiningOp<DequantizeLinearOp>();
    if (!dx || !dw || dx.getBlockSize() != 0 || !isScalar(dx.getXScale()) ||
        isNone(dx.getXZeroPoint()) || !is8Bit(dx.getX()) ||
        !is8Bit(dw.getX()) || !matchPattern(dw.getX(), m_Constant()) ||
        !allF32({dx.getXScale(), dw.getXScale(), q.getYScale()})) {
      return failure();
    }
    auto wType = cast<RankedTensorType>(dw.getX().getType());
    if (!wType.hasStaticShape()) {
      return failure();
    }
    int64_t filters = wType.getDimSize(0);
    if (!perTensorOrAxis0(dw, filters) ||
        !matchPattern(dw.getXScale(), m_Constant())) {
      return failure();
    }
    Value wZeroPoint = zeroPointOf(dw, rewriter);
    Value bias;
    if (!isNone(conv.getB()) && !isZeroBias(conv.getB())) {
      auto db = conv.getB().getDefiningOp<DequantizeLinearOp>();
      if (!db || !matchPattern(db.getX(), m_Constant()) ||
          !cast<RankedTensorType>(db.getX().getType())
               .getElementType()
               .isInteger(32) ||
          !perTensorOrAxis0(db, filters) ||
          (!isNone(db.getXZeroPoint()) && !allZero(db.getXZeroPoint())) ||
          !biasScaleMatches(db.getXScale(), dx.getXScale(), dw.getXScale(),
                            filters)) {
        return failure();
      }
      bias = db.getX();
    }
    SmallVector<Value> operands = {
        dx.getX(),      dx.getXScale(), dx.getXZeroPoint(), dw.getX(),
        dw.getXScale(), wZeroPoint,     q.getYScale(),      q.getYZeroPoint()};
    if (bias) {
      operands.push_back(bias);
    } else {
      operands.push_back(
          NoneOp::create(rewriter, q.getLoc(), rewriter.getNoneType()));
    }
    OperationState state(
        FusedLoc::get(getContext(), {conv.getLoc(), q.getLoc()}),
        QLinearConvOp::getOperationName());
    state.addOperands(operands);
    state.addTypes(q.getY().getType());
    state.addAttributes(conv->getAttrs());
    rewriter.replaceOp(q, rewriter.create(state)->getResults());
    rewriter.eraseOp(conv);
    return success();
  }

  /// Whether the bias scale is x_scale * w_scale (in f32, as the
  /// quantizers compute it) for each of `filters` channels.
  static bool biasScaleMatches(Value bias, Value x, Value w, int64_t filters) {
    std::optional<SmallVector<float>> bv = constantFloats(bias),
                                      xv = constantFloats(x),
                                      wv = constantFloats(w);
    if (!bv || !xv || !wv || xv->size() != 1) {
      return false;
    }
    for (int64_t f = 0; f < filters; ++f) {
      float expected = xv->front() * (*wv)[wv->size() == 1 ? 0 : f];
      if ((*bv)[bv->size() == 1 ? 0 : f] != expected) {
        return false;
      }
    }
    return true;
  }
};

/// DequantizeLinear(aq) -> MatMul <- DequantizeLinear(bq) -> QuantizeLinear
/// with a per-tensor input and output and a constant 2-d 8-bit B quantized
/// per tensor or per column (axis 1) folds into QLinearMatMul, which the
/// int8 lowering runs over packed lanes.
struct FoldQdqMatMul final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto matmul = q.getX().getDefiningOp<MatMulOp>();
    if (!isPerTensorOutput(q, matmul) || !allF32({q.getYScale()})) {
      return failure();
    }
    auto [da, db] = quantizedMatMulOperands(matmul);
    if (!da) {
      return failure();
    }
    SmallVector<Value> operands = {
        da.getX(),     da.getXScale(),   zeroPointOf(da, rewriter),
        db.getX(),     db.getXScale(),   zeroPointOf(db, rewriter),
        q.getYScale(), q.getYZeroPoint()};
    OperationState state(
        FusedLoc::get(getContext(), {matmul.getLoc(), q.getLoc()}),
        QLinearMatMulOp::getOperationName());
    state.addOperands(operands);
    state.addTypes(q.getY().getType());
    rewriter.replaceOp(q, rewriter.create(state)->getResults());
    rewriter.eraseOp(matmul);
    return success();
  }
};

/// DequantizeLinear(aq) -> MatMul <- DequantizeLinear(bq) whose result
/// stays float (no QuantizeLinear takes it alone; what infer's own
/// quantizer writes for a linear layer): MatMulInteger(aq, bq) in i32, then
/// the float result acc * (a_scale * b_scale[n]), each product exact in the
/// integer sum instead of rounded in f32. Same conditions on the operands
/// as FoldQdqMatMul.
struct FoldQdqMatMulFloat final : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (matmul->hasOneUse() &&
        isa<QuantizeLinearOp>(*matmul->getUsers().begin())) {
      return failure(); // FoldQdqMatMul's, or a form it refused
    }
    auto [da, db] = quantizedMatMulOperands(matmul);
    auto yType = dyn_cast<RankedTensorType>(matmul.getY().getType());
    if (!da || !yType || !yType.getElementType().isF32()) {
      return failure();
    }
    std::optional<SmallVector<float>> as = constantFloats(da.getXScale()),
                                      bs = constantFloats(db.getXScale());
    if (!as || !bs) {
      return failure();
    }
    Location loc = matmul.getLoc();
    auto i32 = rewriter.getI32Type();
    OperationState product(loc, MatMulIntegerOp::getOperationName());
    product.addOperands({da.getX(), db.getX(), zeroPointOf(da, rewriter),
                         zeroPointOf(db, rewriter)});
    product.addTypes(yType.clone(i32));
    Value acc = rewriter.create(product)->getResult(0);
    OperationState cast(loc, CastOp::getOperationName());
    cast.addOperands(acc);
    cast.addTypes(yType);
    cast.addAttribute("to", TypeAttr::get(rewriter.getF32Type()));
    Value real = rewriter.create(cast)->getResult(0);
    SmallVector<float> scales(bs->size());
    for (size_t n = 0; n < bs->size(); ++n) {
      scales[n] = as->front() * (*bs)[n];
    }
    auto scaleType =
        RankedTensorType::get({int64_t(scales.size())}, rewriter.getF32Type());
    Value scale = ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(scaleType, ArrayRef(scales)));
    OperationState mul(loc, MulOp::getOperationName());
    mul.addOperands({real, scale});
    mul.addTypes(yType);
    rewriter.replaceOp(matmul, rewriter.create(mul)->getResults());
    return success();
  }
};

/// `name` built from `operands` with one result of `type` (the graph ops'
/// generic form, as the importer makes them).
Value makeOp(PatternRewriter &rewriter, Location loc, StringRef name,
             ValueRange operands, Type type,
             ArrayRef<NamedAttribute> attributes = {}) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(attributes);
  return rewriter.create(state)->getResult(0);
}

/// QuantizeLinear(Cast<f32>(acc) * multiplier, 1, zy): saturate(round to
/// even(acc * multiplier) + zy) of the i32 `acc`, one f32 multiply per
/// element (`multiplier` per tensor, or per column of a 2-d `acc`), as the
/// integer kernels requantize.
Value requantize(PatternRewriter &rewriter, Location loc, Value acc,
                 ArrayRef<float> multiplier, QuantizeLinearOp q) {
  auto accType = cast<RankedTensorType>(acc.getType());
  Type f32 = rewriter.getF32Type();
  Value real =
      makeOp(rewriter, loc, CastOp::getOperationName(), acc, accType.clone(f32),
             {rewriter.getNamedAttr("to", TypeAttr::get(f32))});
  auto multiplierType =
      multiplier.size() == 1
          ? RankedTensorType::get({}, f32)
          : RankedTensorType::get({int64_t(multiplier.size())}, f32);
  Value scaled = makeOp(
      rewriter, loc, MulOp::getOperationName(),
      {real,
       ConstantOp::create(rewriter, loc,
                          DenseElementsAttr::get(multiplierType, multiplier))},
      accType.clone(f32));
  auto one = RankedTensorType::get({}, f32);
  return makeOp(
      rewriter, loc, QuantizeLinearOp::getOperationName(),
      {scaled,
       ConstantOp::create(rewriter, loc,
                          DenseElementsAttr::get(one, ArrayRef<float>{1.0f})),
       q.getYZeroPoint()},
      q.getY().getType());
}

/// QuantizeLinear(GlobalAveragePool(DequantizeLinear(xq))), per tensor on
/// both sides, is computed on integers: the window's exact sum of xq in
/// i32, less zx per element, times x_scale / (y_scale * HW) in f32,
/// requantized (what ONNX Runtime's QLinearGlobalAveragePool computes). The
/// float mean would round differently with each target's order of
/// summation, and the requantization would turn that into another integer.
struct FoldQdqGlobalAveragePool final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto pool = q.getX().getDefiningOp<GlobalAveragePoolOp>();
    auto dq = pool ? pool.getX().getDefiningOp<DequantizeLinearOp>()
                   : DequantizeLinearOp();
    if (!dq || !isPerTensorOutput(q, pool) || dq.getBlockSize() != 0 ||
        !isScalar(dq.getXScale()) || !is8Bit(dq.getX())) {
      return failure();
    }
    auto xType = cast<RankedTensorType>(dq.getX().getType());
    std::optional<SmallVector<float>> xs = constantFloats(dq.getXScale()),
                                      ys = constantFloats(q.getYScale());
    std::optional<SmallVector<int64_t>> zx = SmallVector<int64_t>{0};
    if (!isNone(dq.getXZeroPoint())) {
      zx = constantInts(dq.getXZeroPoint(),
                        xType.getElementType().isUnsignedInteger());
    }
    if (!xs || !ys || !zx || !xType.hasStaticShape() || xType.getRank() < 3 ||
        !isa<RankedTensorType>(q.getY().getType())) {
      return failure();
    }
    int64_t window = 1;
    SmallVector<int64_t> axes, sumShape(xType.getShape());
    for (int64_t d = 2; d < xType.getRank(); ++d) {
      window *= xType.getDimSize(d);
      axes.push_back(d);
      sumShape[d] = 1;
    }
    Location loc = q.getLoc();
    auto i32 = rewriter.getI32Type();
    Value wide = makeOp(rewriter, loc, CastOp::getOperationName(), dq.getX(),
                        xType.clone(i32),
                        {rewriter.getNamedAttr("to", TypeAttr::get(i32))});
    auto axesType =
        RankedTensorType::get({int64_t(axes.size())}, rewriter.getI64Type());
    Value sum = makeOp(
        rewriter, loc, ReduceSumOp::getOperationName(),
        {wide,
         ConstantOp::create(rewriter, loc,
                            DenseElementsAttr::get(axesType, ArrayRef(axes)))},
        RankedTensorType::get(sumShape, i32));
    auto scalar = RankedTensorType::get({}, i32);
    Value centered = makeOp(
        rewriter, loc, SubOp::getOperationName(),
        {sum, ConstantOp::create(
                  rewriter, loc,
                  DenseElementsAttr::get(scalar, ArrayRef<int32_t>{int32_t(
                                                     zx->front() * window)}))},
        RankedTensorType::get(sumShape, i32));
    float multiplier = xs->front() / (ys->front() * float(window));
    rewriter.replaceOp(q, requantize(rewriter, loc, centered, multiplier, q));
    return success();
  }
};

/// QuantizeLinear(Gemm(DequantizeLinear(aq), DequantizeLinear(bq)
/// [, DequantizeLinear(c32)])) with A per tensor, a constant 2-d B per
/// tensor or per output column, alpha = beta = 1, A not transposed, an i32
/// bias at scale a_scale * b_scale (what quantizers write for a linear
/// layer): MatMulInteger(aq, B as K x N) in i32, plus the bias, requantized
/// with (a_scale * b_scale[n]) / y_scale as the integer convolutions are.
/// A float Gemm's sums would round with each target's order.
struct FoldQdqGemm final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto gemm = q.getX().getDefiningOp<GemmOp>();
    if (!gemm || !isPerTensorOutput(q, gemm) || gemm.getTransA() ||
        gemm.getAlpha().convertToDouble() != 1.0 ||
        (!isNone(gemm.getC()) && gemm.getBeta().convertToDouble() != 1.0)) {
      return failure();
    }
    auto da = gemm.getA().getDefiningOp<DequantizeLinearOp>();
    auto db = gemm.getB().getDefiningOp<DequantizeLinearOp>();
    auto bType = db ? dyn_cast<RankedTensorType>(db.getX().getType())
                    : RankedTensorType();
    auto yType = dyn_cast<RankedTensorType>(gemm.getY().getType());
    if (!da || !db || !bType || !yType || !yType.hasStaticShape() ||
        da.getBlockSize() != 0 || db.getBlockSize() != 0 ||
        !isScalar(da.getXScale()) || !is8Bit(da.getX()) || !is8Bit(db.getX()) ||
        !matchPattern(db.getX(), m_Constant()) || !bType.hasStaticShape() ||
        bType.getRank() != 2) {
      return failure();
    }
    bool transB = gemm.getTransB();
    int64_t columns = bType.getDimSize(transB ? 0 : 1);
    std::optional<SmallVector<float>> as = constantFloats(da.getXScale()),
                                      bs = constantFloats(db.getXScale()),
                                      ys = constantFloats(q.getYScale());
    int64_t axis = db.getAxis() < 0 ? db.getAxis() + 2 : db.getAxis();
    if (!as || !bs || !ys ||
        (bs->size() != 1 &&
         (int64_t(bs->size()) != columns || axis != (transB ? 0 : 1)))) {
      return failure();
    }
    SmallVector<float> scales(columns), multipliers(columns);
    for (int64_t n = 0; n < columns; ++n) {
      scales[n] = as->front() * (*bs)[bs->size() == 1 ? 0 : n];
      multipliers[n] = scales[n] / ys->front();
    }
    // The bias: i32 at scale a_scale * b_scale[n], zero points 0.
    Value bias;
    if (!isNone(gemm.getC()) && !isZeroBias(gemm.getC())) {
      auto dc = gemm.getC().getDefiningOp<DequantizeLinearOp>();
      std::optional<SmallVector<float>> cs =
          dc ? constantFloats(dc.getXScale()) : std::nullopt;
      auto cType = dc ? dyn_cast<RankedTensorType>(dc.getX().getType())
                      : RankedTensorType();
      if (!cs || !cType || !cType.getElementType().isInteger(32) ||
          cType.getRank() != 1 || cType.getDimSize(0) != columns ||
          !matchPattern(dc.getX(), m_Constant()) ||
          (!isNone(dc.getXZeroPoint()) && !allZero(dc.getXZeroPoint()))) {
        return failure();
      }
      for (int64_t n = 0; n < columns; ++n) {
        float c = (*cs)[cs->size() == 1 ? 0 : n];
        if (std::fabs(c - scales[n]) > 1e-6f * std::fabs(scales[n])) {
          return failure();
        }
      }
      bias = dc.getX();
    }
    Location loc = q.getLoc();
    Value b = db.getX(), bZp = zeroPointOf(db, rewriter);
    if (transB) {
      // Transposed here, whatever its size (a Transpose of a large
      // constant would stay a run-time op, and B no constant).
      bool isUnsigned = bType.getElementType().isUnsignedInteger();
      std::optional<SmallVector<int64_t>> values = constantInts(b, isUnsigned);
      if (!values) {
        return failure();
      }
      int64_t rows = bType.getDimSize(0), depth = bType.getDimSize(1);
      SmallVector<int8_t> transposed(values->size());
      for (int64_t n = 0; n < rows; ++n) {
        for (int64_t k = 0; k < depth; ++k) {
          transposed[k * rows + n] = int8_t((*values)[n * depth + k]);
        }
      }
      b = ConstantOp::create(rewriter, loc,
                             makeConstantElements(bType.clone({depth, rows}),
                                                  transposed,
                                                  "transposed_weights"));
    }
    auto accType = yType.clone(rewriter.getI32Type());
    Value acc = makeOp(rewriter, loc, MatMulIntegerOp::getOperationName(),
                       {da.getX(), b, zeroPointOf(da, rewriter), bZp}, accType);
    if (bias) {
      acc = makeOp(rewriter, loc, AddOp::getOperationName(), {acc, bias},
                   accType);
    }
    rewriter.replaceOp(q, requantize(rewriter, loc, acc, multipliers, q));
    return success();
  }
};

/// QuantizeLinear(MaxPool(DequantizeLinear(x))) with the same scale and
/// zero point on both sides is MaxPool(x): dequantization is increasing
/// (scales are positive), so the max commutes with it, and requantizing a
/// dequantized value gives it back (padding: -inf saturates to the type's
/// minimum, which the integer pool pads with).
struct FoldQdqMaxPool final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto pool = q.getX().getDefiningOp<MaxPoolOp>();
    if (!pool || !pool.getY().hasOneUse() || !isNone(pool.getIndices()) ||
        q.getBlockSize() != 0 || !is8Bit(q.getY())) {
      return failure();
    }
    auto dq = pool.getX().getDefiningOp<DequantizeLinearOp>();
    if (!dq || dq.getBlockSize() != 0 ||
        getElementTypeOrSelf(dq.getX()) != getElementTypeOrSelf(q.getY()) ||
        !sameParameters(dq.getXScale(), dq.getXZeroPoint(), q.getYScale(),
                        q.getYZeroPoint())) {
      return failure();
    }
    OperationState state(pool.getLoc(), MaxPoolOp::getOperationName());
    state.addOperands(dq.getX());
    state.addTypes({q.getY().getType(), pool.getIndices().getType()});
    state.addAttributes(pool->getAttrs());
    rewriter.replaceOp(q, rewriter.create(state)->getResult(0));
    rewriter.eraseOp(pool);
    return success();
  }

  /// Whether two per-tensor (scale, zero point) pairs are equal constants.
  static bool sameParameters(Value scale, Value zp, Value otherScale,
                             Value otherZp) {
    std::optional<SmallVector<float>> a = constantFloats(scale),
                                      b = constantFloats(otherScale);
    if (!a || !b || a->size() != 1 || *a != *b || a->front() <= 0) {
      return false;
    }
    if (isNone(zp) || isNone(otherZp)) {
      return isNone(zp) && isNone(otherZp);
    }
    auto type = cast<RankedTensorType>(zp.getType());
    bool isUnsigned = type.getElementType().isUnsignedInteger();
    std::optional<SmallVector<int64_t>> za = constantInts(zp, isUnsigned),
                                        zb = constantInts(otherZp, isUnsigned);
    return za && zb && za->size() == 1 && *za == *zb &&
           type.getElementType() ==
               cast<RankedTensorType>(otherZp.getType()).getElementType();
  }
};

/// DequantizeLinear of constant 8- or 32-bit integers (weights no integer
/// op took: a float Gemm's) into an f32 constant, computed as the lowering
/// would at run time ((x - zp) * scale in f32), whatever its size.
struct DequantizeConstant final : OpRewritePattern<DequantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DequantizeLinearOp dq,
                                PatternRewriter &rewriter) const override {
    auto xType = dyn_cast<RankedTensorType>(dq.getX().getType());
    auto yType = dyn_cast<RankedTensorType>(dq.getY().getType());
    if (!xType || !yType || !xType.hasStaticShape() ||
        !yType.getElementType().isF32() || dq.getBlockSize() != 0 ||
        !isa<IntegerType>(xType.getElementType())) {
      return failure();
    }
    bool isUnsigned = xType.getElementType().isUnsignedInteger();
    std::optional<SmallVector<int64_t>> x = constantInts(dq.getX(), isUnsigned);
    std::optional<SmallVector<float>> scale = constantFloats(dq.getXScale());
    std::optional<SmallVector<int64_t>> zp;
    if (!isNone(dq.getXZeroPoint())) {
      zp = constantInts(dq.getXZeroPoint(), isUnsigned);
    }
    if (!x || !scale || (!isNone(dq.getXZeroPoint()) && !zp) ||
        (zp && zp->size() != scale->size())) {
      return failure();
    }
    // Per axis: element i takes parameter (i / inner) % dim(axis).
    int64_t rank = xType.getRank(), inner = 1, count = 1;
    if (scale->size() != 1) {
      int64_t axis = dq.getAxis() < 0 ? dq.getAxis() + rank : dq.getAxis();
      if (axis < 0 || axis >= rank ||
          xType.getDimSize(axis) != int64_t(scale->size())) {
        return failure();
      }
      count = xType.getDimSize(axis);
      for (int64_t d = axis + 1; d < rank; ++d) {
        inner *= xType.getDimSize(d);
      }
    }
    SmallVector<float> values(x->size());
    for (size_t i = 0; i < x->size(); ++i) {
      size_t p = (int64_t(i) / inner) % count;
      float v = float((*x)[i]);
      if (zp) {
        v = v - float((*zp)[p]);
      }
      values[i] = v * (*scale)[p];
    }
    auto type = RankedTensorType::get(xType.getShape(), rewriter.getF32Type());
    rewriter.replaceOpWithNewOp<ConstantOp>(
        dq, makeConstantElements(type, values, "dequantized"));
    return success();
  }
};

struct FoldQdqPass final : infer::graph::impl::FoldQdqPassBase<FoldQdqPass> {
  using Base::Base;
  void runOnOperation() override {
    // The integer convolutions and matmuls first: they take their
    // DequantizeLinear's integer weights.
    RewritePatternSet convs(&getContext());
    convs.add<FoldQdqConv, FoldQdqMatMul, FoldQdqMatMulFloat, FoldQdqMaxPool,
              FoldQdqGlobalAveragePool, FoldQdqGemm>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(convs));
    RewritePatternSet constants(&getContext());
    constants.add<DequantizeConstant>(&getContext());
    // Not converging leaves valid IR either way.
    (void)applyPatternsGreedily(getOperation(), std::move(constants));
    // Then what is left between them: elementwise chains over one 8-bit
    // tensor become tables (QdqTables.cpp).
    RewritePatternSet tables(&getContext());
    infer::graph::populateQdqTablePatterns(tables);
    (void)applyPatternsGreedily(getOperation(), std::move(tables));
  }
};

} // namespace
