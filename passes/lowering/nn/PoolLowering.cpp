//===- PoolLowering.cpp - pooling -> linalg -------------------------------===//
//
// MaxPool (with its Indices), AveragePool, LpPool, the global pools and
// MaxUnpool.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/nn/Windows.h"
#include "passes/lowering/tensor/Scatter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using mlir::utils::IteratorType;
using scalar::add;
using scalar::mul;

enum class PoolKind { Max, Average, Lp };

/// A pooling window reduction over `x` (N x C x spatial), padded with
/// `padValue`; `combine(acc, element)`.
Value buildPool(
    OpBuilder &b, Location loc, Value x, ArrayRef<OpFoldResult> outSpatial,
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
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  Value window = tensor::EmptyOp::create(b, loc, kernel, element);
  SmallVector<OpFoldResult> sizes = {dimSize(b, loc, x, 0),
                                     dimSize(b, loc, x, 1)};
  llvm::append_range(sizes, outSpatial);
  RankedTensorType yType = typeOfSizes(sizes, element);
  SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, xExprs, ctx),
                                 AffineMap::get(dims, 0, kExprs, ctx),
                                 AffineMap::get(dims, 0, oExprs, ctx)};
  SmallVector<IteratorType> iterators(2, IteratorType::parallel);
  iterators.append(s, IteratorType::reduction);
  iterators.append(s, IteratorType::parallel);
  Value acc = filledTensor(b, loc, yType, init, sizes);
  return linalg::GenericOp::create(
             b, loc, TypeRange{yType}, ValueRange{x, window}, ValueRange{acc},
             maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl,
                                       combine(nb, nl, args[2], args[0]));
             })
      .getResult(0);
}

/// A max over a window is the max over its rows of each row's max (and a
/// sum the sum of its rows' sums): pooling one spatial dim at a time, the
/// last first, reads k_1 + ... + k_s inputs per output where the window
/// reads k_1 * ... * k_s (a 5x5 max pool, YOLO's SPPF: 10 instead of 25),
/// with the same result for a max (it does not depend on grouping, NaN
/// included) and a sum rounded in another order. Each pass but
/// the last runs over the padded extent of the dims still to pool, so a
/// stride s_j before dim i multiplies pass i's work by s_j; kept only
/// where the estimated inputs read per output are under 3/4 of the
/// window's (not 3x3 stride 2, not 2x2). Null where the window's form is
/// kept.
Value separablePool(
    OpBuilder &b, Location loc, Value padded, ArrayRef<OpFoldResult> outSpatial,
    ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  int64_t s = kernel.size(), window = 1, separate = 0, spread = 1;
  for (int64_t i = 0; i < s; ++i) {
    window *= kernel[i];
    separate += kernel[i] * spread;
    spread *= strides[i];
  }
  if (s < 2 || 4 * separate >= 3 * window) {
    return Value();
  }
  Value y = padded;
  for (int64_t i = s - 1; i >= 0; --i) {
    SmallVector<int64_t> k(s, 1), st(s, 1), dl(s, 1);
    k[i] = kernel[i];
    st[i] = strides[i];
    dl[i] = dilations[i];
    SmallVector<OpFoldResult> out;
    for (int64_t j = 0; j < s; ++j) {
      out.push_back(j == i ? outSpatial[j] : dimSize(b, loc, y, j + 2));
    }
    y = buildPool(b, loc, y, out, k, st, dl, init, combine);
  }
  return y;
}

/// MaxPool's Indices: for each output, the flat index into X (row-major,
/// or with H and W swapped for `columnMajor`) of the first largest element
/// of its window, skipping padding.
Value maxPoolIndices(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                     ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilations, ArrayRef<int64_t> begin,
                     bool columnMajor, bool isUnsigned) {
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> shape = xType.getShape();
  int64_t s = kernel.size();
  int64_t window = 1;
  for (int64_t k : kernel) {
    window *= k;
  }
  Type element = xType.getElementType();
  bool isFloat = isa<FloatType>(element);
  return buildIndexed(
      b, loc, type, [&](OpBuilder &nb, Location l, ArrayRef<Value> out) {
        Type i64 = nb.getI64Type();
        // Integers compare widened to i64 (zero- or sign-extended) from
        // below any of their values, so the first element in the window
        // is taken even when it is the type's minimum.
        Value lowest =
            isFloat ? scalarConstant(nb, l, element, -INFINITY)
                    : arith::ConstantIntOp::create(
                          nb, l, i64, std::numeric_limits<int64_t>::min())
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
              if (!isFloat) {
                v = isUnsigned
                        ? arith::ExtUIOp::create(lb, ll, i64, v).getResult()
                        : arith::ExtSIOp::create(lb, ll, i64, v).getResult();
              }
              Value greater =
                  isFloat
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

/// The leading pads of a window over a static input.
SmallVector<int64_t> staticBegin(const WindowSizes &ws) {
  SmallVector<int64_t> begin;
  for (OpFoldResult b : ws.begin) {
    begin.push_back(getConstantIntValue(b).value_or(0));
  }
  return begin;
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
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto yType = loweredAnyShapeType(op.getY().getType());
    Type element = yType.getElementType();
    int64_t s = xType.getRank() - 2;
    ArrayRef<int64_t> kernel = op.getKernelShape();
    SmallVector<int64_t> strides = orOnes(op.getStrides(), s);
    SmallVector<int64_t> dilations = orOnes(op.getDilations(), s);
    WindowSizes ws = windowSizes(rewriter, loc, adaptor.getX(), yType, kernel,
                                 strides, dilations, op.getPads(),
                                 op.getAutoPad(), op.getCeilMode() != 0);
    auto pad = [&](Value v, Value padValue) {
      return padSpatial(rewriter, loc, v, ws.begin, ws.end, ws.out, kernel,
                        strides, dilations, padValue);
    };
    if constexpr (kind == PoolKind::Max) {
      // uint8 (opset 12) compares unsigned, from 0.
      bool isUnsigned = isUnsignedTensor(op.getX().getType());
      unsigned width = element.getIntOrFloatBitWidth();
      Value lowest =
          isa<FloatType>(element)
              ? scalarConstant(rewriter, loc, element, -INFINITY)
              : arith::ConstantOp::create(
                    rewriter, loc,
                    rewriter.getIntegerAttr(
                        element, isUnsigned ? APInt::getMinValue(width)
                                            : APInt::getSignedMinValue(width)))
                    .getResult();
      auto maximum = [&](OpBuilder &b, Location l, Value acc,
                         Value v) -> Value {
        if (isa<FloatType>(v.getType())) {
          return arith::MaximumFOp::create(b, l, acc, v);
        }
        if (isUnsigned) {
          return arith::MaxUIOp::create(b, l, acc, v);
        }
        return arith::MaxSIOp::create(b, l, acc, v);
      };
      Value padded = pad(adaptor.getX(), lowest);
      Value y = separablePool(rewriter, loc, padded, ws.out, kernel, strides,
                              dilations, lowest, maximum);
      if (!y) {
        y = buildPool(rewriter, loc, padded, ws.out, kernel, strides, dilations,
                      lowest, maximum);
      }
      // Y and Indices each keep the more precise of the declared and the
      // inferred type, so either may be the dynamic one.
      auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
      if (!isa<NoneType>(op.getIndices().getType()) &&
          (!yType.hasStaticShape() || !xType.hasStaticShape() || !indicesType ||
           !indicesType.hasStaticShape())) {
        return rewriter.notifyMatchFailure(op, "Indices with a dynamic batch");
      }
      Value indices =
          isa<NoneType>(op.getIndices().getType())
              ? noneValue(rewriter, loc)
              : maxPoolIndices(rewriter, loc, adaptor.getX(),
                               loweredTensorType(op.getIndices().getType()),
                               kernel, strides, dilations, staticBegin(ws),
                               op.getStorageOrder() != 0, isUnsigned);
      rewriter.replaceOp(op, {castTo(rewriter, loc, y, yType), indices});
      return success();
    } else {
      Value zero = scalarConstant(rewriter, loc, element, 0);
      double p = 1;
      if constexpr (kind == PoolKind::Lp) {
        p = op.getP();
      }
      auto sumOf = [p](OpBuilder &b, Location l, Value acc, Value v) {
        if (p != 1) {
          Value a = math::AbsFOp::create(b, l, v);
          v = math::PowFOp::create(b, l, a,
                                   scalarConstant(b, l, a.getType(), p));
        }
        return add(b, l, acc, v);
      };
      Value padded = pad(adaptor.getX(), zero);
      // An average's window sum is the sum of its rows' sums too (the
      // order of the additions changes, within an ulp or two of the sum);
      // an Lp pool's powers apply once, to the inputs.
      Value sum;
      if constexpr (kind == PoolKind::Average) {
        sum = separablePool(rewriter, loc, padded, ws.out, kernel, strides,
                            dilations, zero, sumOf);
      }
      if (!sum) {
        sum = buildPool(rewriter, loc, padded, ws.out, kernel, strides,
                        dilations, zero, sumOf);
      }
      if constexpr (kind == PoolKind::Lp) {
        rewriter.replaceOp(
            op, buildElementwise(
                    rewriter, loc, yType, {castTo(rewriter, loc, sum, yType)},
                    [p](OpBuilder &b, Location l, ValueRange a) {
                      return math::PowFOp::create(
                          b, l, a[0],
                          scalarConstant(b, l, a[0].getType(), 1.0 / p));
                    }));
        return success();
      } else {
        // Divisors: window elements inside the input (and inside the pads
        // when count_include_pad), computed by pooling a plane of ones
        // (1 x 1 x spatial: the same for every image and channel).
        SmallVector<int64_t> planeShape = {1, 1};
        SmallVector<OpFoldResult> planeSizes = {rewriter.getIndexAttr(1),
                                                rewriter.getIndexAttr(1)};
        for (int64_t i = 0; i < s; ++i) {
          planeShape.push_back(xType.getDimSize(i + 2));
          planeSizes.push_back(dimSize(rewriter, loc, adaptor.getX(), i + 2));
        }
        Value ones = filledTensor(
            rewriter, loc, RankedTensorType::get(planeShape, element),
            scalarConstant(rewriter, loc, element, 1), planeSizes);
        Value padOnes = padSpatial(
            rewriter, loc, ones, ws.begin, ws.end, ws.in, kernel,
            SmallVector<int64_t>(s, 1), SmallVector<int64_t>(s, 1),
            op.getCountIncludePad() ? scalarConstant(rewriter, loc, element, 1)
                                    : zero);
        SmallVector<OpFoldResult> none(s, rewriter.getIndexAttr(0));
        padOnes = padSpatial(rewriter, loc, padOnes, none, none, ws.out, kernel,
                             strides, dilations, zero);
        Value count = buildPool(rewriter, loc, padOnes, ws.out, kernel, strides,
                                dilations, zero,
                                [](OpBuilder &b, Location l, Value acc,
                                   Value v) { return add(b, l, acc, v); });
        SmallVector<int64_t> countShape = {1, 1};
        llvm::append_range(countShape, yType.getShape().drop_front(2));
        auto countType = RankedTensorType::get(countShape, element);
        rewriter.replaceOp(
            op,
            buildElementwise(
                rewriter, loc, yType,
                {castTo(rewriter, loc, sum, yType),
                 castTo(rewriter, loc, count, countType)},
                [](OpBuilder &b, Location l, ValueRange a) {
                  return arith::DivFOp::create(b, l, a[0], a[1]).getResult();
                }));
        return success();
      }
    }
  }
};

template <typename Op, PoolKind kind>
struct GlobalPoolLowering final : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto type = cast<RankedTensorType>(x.getType());
    Type t = type.getElementType();
    auto axes = llvm::to_vector(llvm::seq<int64_t>(2, type.getRank()));
    SizeMath m(rewriter, loc);
    OpFoldResult count = m.constant(1);
    for (int64_t a : axes) {
      count = m.mul(count, dimSize(rewriter, loc, x, a));
    }
    // The mean's divisor: a constant, or the run-time element count.
    Value divisor =
        getConstantIntValue(count)
            ? scalarConstant(rewriter, loc, t, *getConstantIntValue(count))
            : arith::UIToFPOp::create(
                  rewriter, loc, t,
                  arith::IndexCastUIOp::create(
                      rewriter, loc, rewriter.getI64Type(), m.value(count)))
                  .getResult();
    double p = 2;
    if constexpr (kind == PoolKind::Lp) {
      p = op.getP();
    }
    Value r = buildReduction(
        rewriter, loc, x, axes, true,
        kind == PoolKind::Max ? scalarConstant(rewriter, loc, t, -INFINITY)
                              : scalarConstant(rewriter, loc, t, 0),
        [&](OpBuilder &b, Location l, Value acc, Value v) -> Value {
          if (kind == PoolKind::Max) {
            return arith::MaximumFOp::create(b, l, acc, v);
          }
          if (kind == PoolKind::Lp) {
            v = math::PowFOp::create(b, l, math::AbsFOp::create(b, l, v),
                                     scalarConstant(b, l, t, p));
          }
          return arith::AddFOp::create(b, l, acc, v);
        });
    if (kind != PoolKind::Max) {
      r = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(r.getType()), {r},
          [&](OpBuilder &b, Location l, ValueRange a) -> Value {
            if (kind == PoolKind::Lp) {
              return math::PowFOp::create(b, l, a[0],
                                          scalarConstant(b, l, t, 1.0 / p));
            }
            return arith::DivFOp::create(b, l, a[0], divisor);
          });
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// MaxUnpool: zeros of the output shape with each X element written at the
/// flat output index its I element gives. An `output_shape` operand must be
/// a constant equal to the output type (the shape is fixed at compile time).
struct MaxUnpoolLowering final : OpConversionPattern<MaxUnpoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxUnpoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto type = loweredTensorType(op.getOutput().getType());
    Location loc = op.getLoc();
    if (!isNone(op.getOutputShape())) {
      auto shape = constantInts(op.getOutputShape());
      if (shape && ArrayRef<int64_t>(*shape) != type.getShape()) {
        return rewriter.notifyMatchFailure(
            op, "output_shape differs from the result type");
      }
      // An output_shape known only at run time must be the declared one.
      if (!shape) {
        if (!checksEnabled(op)) {
          return rewriter.notifyMatchFailure(
              op, "a run-time output_shape needs run-time checks");
        }
        Value same = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
        for (int64_t d = 0; d < type.getRank(); ++d) {
          Value v = tensor::ExtractOp::create(
              rewriter, loc, adaptor.getOutputShape(),
              ValueRange{indexConstant(rewriter, loc, d)});
          Value want = arith::ConstantIntOp::create(
              rewriter, loc, type.getDimSize(d),
              cast<IntegerType>(v.getType()).getWidth());
          same = arith::AndIOp::create(
              rewriter, loc, same,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, v,
                                    want));
        }
        assertAtRunTime(
            rewriter, op, same,
            "output_shape differs from the shape the model declares for the "
            "output");
      }
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    Value x = adaptor.getX(), indices = adaptor.getI();
    Value zeros =
        filledTensor(rewriter, loc, type,
                     scalarConstant(rewriter, loc, type.getElementType(), 0));
    // Indices count in the shape MaxUnpool infers from the window
    // ((in - 1) * stride - pads + kernel); a larger output_shape keeps them
    // at the same coordinates, zeros after (ONNX's reference).
    int64_t s = xType.getRank() - 2;
    ArrayRef<int64_t> kernel = op.getKernelShape();
    SmallVector<int64_t> inferred(xType.getShape().take_front(2));
    for (int64_t d = 0; d < s; ++d) {
      int64_t stride = op.getStrides() ? (*op.getStrides())[d] : 1;
      int64_t pads =
          op.getPads() ? (*op.getPads())[d] + (*op.getPads())[s + d] : 0;
      inferred.push_back((xType.getDimSize(d + 2) - 1) * stride - pads +
                         kernel[d]);
    }
    int64_t total = 1;
    for (int64_t d : inferred) {
      total *= d;
    }
    Value result = scatterLoop(
        rewriter, loc, zeros, xType.getNumElements(), "none",
        [&](OpBuilder &b, Location l, Value k) {
          Value i = tensor::ExtractOp::create(
              b, l, indices, delinearize(b, l, k, xType.getShape()));
          Value flat = clampIndex(
              b, l, arith::IndexCastOp::create(b, l, b.getIndexType(), i),
              total);
          SmallVector<Value> at = delinearize(b, l, flat, inferred);
          for (size_t d = 0; d < at.size(); ++d) {
            at[d] = arith::MinUIOp::create(
                b, l, at[d], indexConstant(b, l, type.getDimSize(d) - 1));
          }
          return at;
        },
        [&](OpBuilder &b, Location l, Value k) -> Value {
          return tensor::ExtractOp::create(
              b, l, x, delinearize(b, l, k, xType.getShape()));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populatePoolLoweringPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns
      .add<PoolLowering<MaxPoolOp, PoolKind::Max>,
           PoolLowering<AveragePoolOp, PoolKind::Average>,
           PoolLowering<LpPoolOp, PoolKind::Lp>,
           GlobalPoolLowering<GlobalAveragePoolOp, PoolKind::Average>,
           GlobalPoolLowering<GlobalMaxPoolOp, PoolKind::Max>,
           GlobalPoolLowering<GlobalLpPoolOp, PoolKind::Lp>, MaxUnpoolLowering>(
          converter, patterns.getContext());
}

} // namespace infer::lowering
