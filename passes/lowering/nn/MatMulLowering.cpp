//===- MatMulLowering.cpp - MatMul, Gemm -> linalg ------------------------===//
//
// Matrix products become `linalg.generic` ops whose indexing maps carry
// broadcasting and transposition, so the targets see one structured
// contraction per layer (the CPU tiles it into register kernels).
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
                  RankedTensorType resultType, bool transA, bool transB,
                  MultiplyAdd multiplyAdd) {
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
        if (multiplyAdd) {
          linalg::YieldOp::create(nb, nl, multiplyAdd(nb, nl, args[2], x, y));
          return;
        }
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

/// For an op infer-graph-bf16 marked, with a constant 2-d f32 `b`: `a`
/// packed in bf16 pairs along `aDim` (its K dim) and `b` as a K x N matrix
/// packed along K (`bDim`: b's K dim, 1 when b is N x K), PairDot.h;
/// nullopt otherwise (also for a dynamic `a`).
std::optional<std::pair<Value, Value>> bf16Operands(Operation *op, Value a,
                                                    Value b, int64_t aDim,
                                                    int64_t bDim,
                                                    OpBuilder &builder) {
  auto bType = cast<RankedTensorType>(b.getType());
  auto aType = cast<RankedTensorType>(a.getType());
  if (!graph::markedBf16(op) || bType.getRank() != 2 ||
      !aType.getElementType().isF32() || !aType.hasStaticShape()) {
    return std::nullopt;
  }
  auto values = graph::constantFloats(b);
  if (!values) {
    return std::nullopt;
  }
  SmallVector<int64_t> shape(bType.getShape());
  if (bDim == 1) {
    // B read transposed (Gemm's transB): stored as the K x N matrix, so
    // the kernels read its rows in place.
    SmallVector<float> transposed(values->size());
    for (int64_t n = 0; n < shape[0]; ++n) {
      for (int64_t k = 0; k < shape[1]; ++k) {
        transposed[k * shape[0] + n] = (*values)[n * shape[1] + k];
      }
    }
    *values = std::move(transposed);
    std::swap(shape[0], shape[1]);
  }
  Location loc = op->getLoc();
  Value packedA = packBf16Pairs(builder, loc, a, aDim);
  Value packedB = bf16PairsConstant(builder, loc, *values, shape, 0);
  return std::pair(packedA, packedB);
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
    Value product;
    if (auto bf16 = bf16Operands(op, a, b, aType.getRank() - 1, 0, rewriter)) {
      product = buildMatmul(rewriter, loc, bf16->first, bf16->second, fullType,
                            false, false, pairDotStep);
    } else {
      product = buildMatmul(rewriter, loc, a, b, fullType);
    }
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
    Value product;
    std::optional<std::pair<Value, Value>> bf16;
    if (!op.getTransA()) {
      bf16 = bf16Operands(op, adaptor.getA(), adaptor.getB(), 1,
                          op.getTransB() ? 1 : 0, rewriter);
    }
    if (bf16) {
      product = buildMatmul(rewriter, loc, bf16->first, bf16->second,
                            resultType, false, false, pairDotStep);
    } else {
      product = buildMatmul(rewriter, loc, adaptor.getA(), adaptor.getB(),
                            resultType, op.getTransA(), op.getTransB());
    }
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

} // namespace

void populateMatMulLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<MatMulLowering, GemmLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
