//===- IndexingLowering.cpp - gathers, scatters, resize, transposed conv --===//
//
// Ops whose source element depends on data or on non-affine index math.
// Gathers and Resize compute each output element from its indices
// (`buildIndexed` + `tensor.extract`); scatters update a copy of the data in
// an `scf.for` over the updates, in order, as ONNX specifies.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

Value idx(OpBuilder &b, Location l, int64_t v) {
  return indexConstant(b, l, v);
}

Value combine(OpBuilder &b, Location l, StringRef reduction, Value old,
              Value update) {
  bool f = isa<FloatType>(old.getType());
  if (reduction == "add") {
    return f ? arith::AddFOp::create(b, l, old, update).getResult()
             : arith::AddIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "mul") {
    return f ? arith::MulFOp::create(b, l, old, update).getResult()
             : arith::MulIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "max") {
    return f ? arith::MaximumFOp::create(b, l, old, update).getResult()
             : arith::MaxSIOp::create(b, l, old, update).getResult();
  }
  if (reduction == "min") {
    return f ? arith::MinimumFOp::create(b, l, old, update).getResult()
             : arith::MinSIOp::create(b, l, old, update).getResult();
  }
  return update;
}

/// Applies every update in order: `position(b, l, k)` gives the destination
/// coordinates of update element k (flat), `value` its value.
Value scatterLoop(
    OpBuilder &b, Location loc, Value data, int64_t count, StringRef reduction,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> position,
    function_ref<Value(OpBuilder &, Location, Value)> value) {
  // Start from a copy so the input is not written.
  auto type = cast<RankedTensorType>(data.getType());
  Value copy = buildElementwise(
      b, loc, type, data,
      [](OpBuilder &, Location, ValueRange a) { return a[0]; });
  auto loop = scf::ForOp::create(
      b, loc, idx(b, loc, 0), idx(b, loc, count), idx(b, loc, 1),
      ValueRange{copy},
      [&](OpBuilder &nb, Location l, Value k, ValueRange iter) {
        SmallVector<Value> at = position(nb, l, k);
        Value update = value(nb, l, k);
        Value old = tensor::ExtractOp::create(nb, l, iter[0], at);
        Value next = combine(nb, l, reduction, old, update);
        Value inserted = tensor::InsertOp::create(nb, l, next, iter[0], at);
        scf::YieldOp::create(nb, l, inserted);
      });
  return loop.getResult(0);
}

struct ScatterElementsLowering final : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t axis = *normalizeAxis(op.getAxis(), dataType.getRank());
    Value indices = adaptor.getIndices(), updates = adaptor.getUpdates();
    assertIndicesInRange(rewriter, op, indices, {dataType.getDimSize(axis)});
    Value result = scatterLoop(
        rewriter, op.getLoc(), adaptor.getData(), indicesType.getNumElements(),
        op.getReduction(),
        [&](OpBuilder &b, Location l, Value k) {
          SmallVector<Value> at = delinearize(b, l, k, indicesType.getShape());
          Value i = tensor::ExtractOp::create(b, l, indices, at);
          at[axis] =
              clampIndex(b, l, wrapIndex(b, l, i, dataType.getDimSize(axis)),
                         dataType.getDimSize(axis));
          return at;
        },
        [&](OpBuilder &b, Location l, Value k) -> Value {
          return tensor::ExtractOp::create(
              b, l, updates, delinearize(b, l, k, indicesType.getShape()));
        });
    rewriter.replaceOp(op, result);
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

struct ScatterNDLowering final : OpConversionPattern<ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    auto updatesType = cast<RankedTensorType>(adaptor.getUpdates().getType());
    int64_t q = indicesType.getRank();
    int64_t depth = indicesType.getDimSize(q - 1);
    Value indices = adaptor.getIndices(), updates = adaptor.getUpdates();
    assertIndicesInRange(rewriter, op, indices,
                         dataType.getShape().take_front(depth),
                         /*perLastDim=*/true);
    Value result = scatterLoop(
        rewriter, op.getLoc(), adaptor.getData(), updatesType.getNumElements(),
        op.getReduction(),
        [&](OpBuilder &b, Location l, Value k) {
          SmallVector<Value> u = delinearize(b, l, k, updatesType.getShape());
          SmallVector<Value> at(u.begin(), u.begin() + (q - 1));
          SmallVector<Value> dest;
          for (int64_t j = 0; j < depth; ++j) {
            SmallVector<Value> pick(at);
            pick.push_back(idx(b, l, j));
            Value i = tensor::ExtractOp::create(b, l, indices, pick);
            int64_t dim = dataType.getDimSize(j);
            dest.push_back(clampIndex(b, l, wrapIndex(b, l, i, dim), dim));
          }
          dest.append(u.begin() + (q - 1), u.end());
          return dest;
        },
        [&](OpBuilder &b, Location l, Value k) -> Value {
          return tensor::ExtractOp::create(
              b, l, updates, delinearize(b, l, k, updatesType.getShape()));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNDLowering final : OpConversionPattern<GatherNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t batch = op.getBatchDims();
    int64_t q = indicesType.getRank();
    int64_t depth = indicesType.getDimSize(q - 1);
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    assertIndicesInRange(rewriter, op, indices,
                         dataType.getShape().slice(batch, depth),
                         /*perLastDim=*/true);
    Value result = buildIndexed(
        rewriter, op.getLoc(), loweredTensorType(op.getOutput().getType()),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          // out = [batch..., indices outer..., data slice...]
          SmallVector<Value> pick(out.begin(), out.begin() + (q - 1));
          SmallVector<Value> src(out.begin(), out.begin() + batch);
          for (int64_t j = 0; j < depth; ++j) {
            SmallVector<Value> at(pick);
            at.push_back(idx(b, l, j));
            Value i = tensor::ExtractOp::create(b, l, indices, at);
            int64_t dim = dataType.getDimSize(batch + j);
            src.push_back(clampIndex(b, l, wrapIndex(b, l, i, dim), dim));
          }
          src.append(out.begin() + (q - 1), out.end());
          return tensor::ExtractOp::create(b, l, data, src);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotLowering final : OpConversionPattern<OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto type = loweredTensorType(op.getOutput().getType());
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    int64_t depth = type.getDimSize(axis);
    Value indices = adaptor.getIndices(), values = adaptor.getValues();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          SmallVector<Value> at(out);
          at.erase(at.begin() + axis);
          Value v = tensor::ExtractOp::create(b, l, indices, at);
          Value i =
              isa<FloatType>(v.getType())
                  ? arith::FPToSIOp::create(b, l, b.getI64Type(), v).getResult()
                  : v;
          Value index = wrapIndex(b, l, i, depth);
          Value hot = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            index, out[axis]);
          Value off =
              tensor::ExtractOp::create(b, l, values, ValueRange{idx(b, l, 0)});
          Value on =
              tensor::ExtractOp::create(b, l, values, ValueRange{idx(b, l, 1)});
          return arith::SelectOp::create(b, l, hot, on, off).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CumSumLowering final : OpConversionPattern<CumSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto type = loweredTensorType(op.getY().getType());
    int64_t rank = type.getRank();
    // The axis may be known only at run time: loop to the largest dimension
    // and mask positions beyond the chosen one's size.
    int64_t n = 0;
    for (int64_t d : type.getShape()) {
      n = std::max(n, d);
    }
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    Value x = adaptor.getX(), axisTensor = adaptor.getAxis();
    Type t = type.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          auto axisType = cast<RankedTensorType>(axisTensor.getType());
          SmallVector<Value> zeros(axisType.getRank(), idx(b, l, 0));
          Value axis = arith::IndexCastOp::create(
              b, l, b.getIndexType(),
              tensor::ExtractOp::create(b, l, axisTensor, zeros));
          Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                            axis, idx(b, l, 0));
          axis = arith::SelectOp::create(
              b, l, neg, arith::AddIOp::create(b, l, axis, idx(b, l, rank)),
              axis);
          Value dim = idx(b, l, 1), pos = idx(b, l, 0);
          SmallVector<Value> isAxis(rank);
          for (int64_t d = 0; d < rank; ++d) {
            isAxis[d] = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                              axis, idx(b, l, d));
            dim = arith::SelectOp::create(b, l, isAxis[d],
                                          idx(b, l, type.getDimSize(d)), dim);
            pos = arith::SelectOp::create(b, l, isAxis[d], out[d], pos);
          }
          // Sum over j of x[..j..] for j before (or after, reversed) pos.
          auto loop = scf::ForOp::create(
              b, l, idx(b, l, 0), idx(b, l, n), idx(b, l, 1),
              ValueRange{scalarConstant(b, l, t, 0)},
              [&](OpBuilder &nb, Location nl, Value j, ValueRange acc) {
                Value inside = arith::CmpIOp::create(
                    nb, nl, arith::CmpIPredicate::ult, j, dim);
                Value jc =
                    arith::SelectOp::create(nb, nl, inside, j, idx(nb, nl, 0));
                SmallVector<Value> at;
                for (int64_t d = 0; d < rank; ++d) {
                  at.push_back(
                      arith::SelectOp::create(nb, nl, isAxis[d], jc, out[d]));
                }
                Value v = tensor::ExtractOp::create(nb, nl, x, at);
                auto pred = reverse ? (exclusive ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::uge)
                                    : (exclusive ? arith::CmpIPredicate::ult
                                                 : arith::CmpIPredicate::ule);
                Value take = arith::AndIOp::create(
                    nb, nl, inside,
                    arith::CmpIOp::create(nb, nl, pred, j, pos));
                Value sum =
                    isa<FloatType>(t)
                        ? arith::AddFOp::create(nb, nl, acc[0], v).getResult()
                        : arith::AddIOp::create(nb, nl, acc[0], v).getResult();
                scf::YieldOp::create(
                    nb, nl,
                    arith::SelectOp::create(nb, nl, take, sum, acc[0])
                        .getResult());
              });
          return loop.getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// y[n, m, o...] = B[m] + sum over the channels c of m's group and the
/// kernel positions k of x[n, c, i...] * W[c, m', k...], where
/// o + pad_begin - k * dilation = i * stride.
struct ConvTransposeLowering final : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = cast<RankedTensorType>(adaptor.getW().getType());
    auto yType = loweredTensorType(op.getY().getType());
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
    Type t = yType.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), yType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> o) {
          Value m = o[1];
          Value g = arith::DivUIOp::create(b, l, m, idx(b, l, mPerGroup));
          Value mLocal = arith::RemUIOp::create(b, l, m, idx(b, l, mPerGroup));
          Value init =
              bias ? tensor::ExtractOp::create(b, l, bias, ValueRange{m})
                         .getResult()
                   : scalarConstant(b, l, t, 0);
          auto channels = scf::ForOp::create(
              b, l, idx(b, l, 0), idx(b, l, cPerGroup), idx(b, l, 1),
              ValueRange{init},
              [&](OpBuilder &cb, Location cl, Value cLocal, ValueRange cAcc) {
                Value c = arith::AddIOp::create(
                    cb, cl,
                    arith::MulIOp::create(cb, cl, g, idx(cb, cl, cPerGroup)),
                    cLocal);
                auto taps = scf::ForOp::create(
                    cb, cl, idx(cb, cl, 0), idx(cb, cl, kernelCount),
                    idx(cb, cl, 1), ValueRange{cAcc[0]},
                    [&](OpBuilder &kb, Location kl, Value flat,
                        ValueRange kAcc) {
                      SmallVector<Value> k = delinearize(kb, kl, flat, kernel);
                      Value valid = arith::ConstantIntOp::create(kb, kl, 1, 1);
                      SmallVector<Value> xAt = {o[0], c}, wAt = {c, mLocal};
                      for (int64_t d = 0; d < s; ++d) {
                        // i * stride = o + pad_begin - k * dilation
                        Value num = arith::SubIOp::create(
                            kb, kl,
                            arith::AddIOp::create(kb, kl, o[d + 2],
                                                  idx(kb, kl, padBegin[d])),
                            arith::MulIOp::create(kb, kl, k[d],
                                                  idx(kb, kl, dilations[d])));
                        Value nonNeg = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::sge, num,
                            idx(kb, kl, 0));
                        Value rem = arith::RemSIOp::create(
                            kb, kl, num, idx(kb, kl, strides[d]));
                        Value exact = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::eq, rem,
                            idx(kb, kl, 0));
                        Value i = arith::DivSIOp::create(
                            kb, kl, num, idx(kb, kl, strides[d]));
                        Value inRange = arith::CmpIOp::create(
                            kb, kl, arith::CmpIPredicate::slt, i,
                            idx(kb, kl, xType.getDimSize(d + 2)));
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
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// TopK by ranking: the element of rank r (count of elements that come
/// before it: larger, or equal with a smaller index) goes to position r.
/// Quadratic in the axis length, which is fine for the classifier heads
/// TopK usually sits on.
struct TopKLowering final : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(adaptor.getX().getType());
    auto valuesType = loweredTensorType(op.getValues().getType());
    auto indicesType = loweredTensorType(op.getIndices().getType());
    int64_t axis = *normalizeAxis(op.getAxis(), inType.getRank());
    int64_t n = inType.getDimSize(axis);
    bool largest = op.getLargest() != 0;
    bool isFloat = isa<FloatType>(inType.getElementType());
    bool isUnsigned = isUnsignedTensor(op.getX().getType());
    Value x = adaptor.getX();
    auto before = [&](OpBuilder &b, Location l, Value xi, Value i, Value xj,
                      Value j) {
      Value better, equal;
      if (isFloat) {
        better = arith::CmpFOp::create(b, l,
                                       largest ? arith::CmpFPredicate::OGT
                                               : arith::CmpFPredicate::OLT,
                                       xi, xj);
        equal = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, xi, xj);
      } else {
        auto pred = largest ? (isUnsigned ? arith::CmpIPredicate::ugt
                                          : arith::CmpIPredicate::sgt)
                            : (isUnsigned ? arith::CmpIPredicate::ult
                                          : arith::CmpIPredicate::slt);
        better = arith::CmpIOp::create(b, l, pred, xi, xj);
        equal = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, xi, xj);
      }
      Value earlier =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, i, j);
      return arith::OrIOp::create(b, l, better,
                                  arith::AndIOp::create(b, l, equal, earlier))
          .getResult();
    };
    Value indices = buildIndexed(
        rewriter, loc, indicesType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value r = out[axis];
          auto outer = scf::ForOp::create(
              b, l, idx(b, l, 0), idx(b, l, n), idx(b, l, 1),
              ValueRange{idx(b, l, 0)},
              [&](OpBuilder &jb, Location jl, Value j, ValueRange found) {
                SmallVector<Value> at(out);
                at[axis] = j;
                Value xj = tensor::ExtractOp::create(jb, jl, x, at);
                auto inner = scf::ForOp::create(
                    jb, jl, idx(jb, jl, 0), idx(jb, jl, n), idx(jb, jl, 1),
                    ValueRange{idx(jb, jl, 0)},
                    [&](OpBuilder &ib, Location il, Value i, ValueRange rank) {
                      SmallVector<Value> ai(out);
                      ai[axis] = i;
                      Value xi = tensor::ExtractOp::create(ib, il, x, ai);
                      Value one = arith::SelectOp::create(
                          ib, il, before(ib, il, xi, i, xj, j), idx(ib, il, 1),
                          idx(ib, il, 0));
                      scf::YieldOp::create(
                          ib, il,
                          arith::AddIOp::create(ib, il, rank[0], one)
                              .getResult());
                    });
                Value hit = arith::CmpIOp::create(
                    jb, jl, arith::CmpIPredicate::eq, inner.getResult(0), r);
                scf::YieldOp::create(
                    jb, jl,
                    arith::SelectOp::create(jb, jl, hit, j, found[0])
                        .getResult());
              });
          return arith::IndexCastOp::create(b, l, b.getI64Type(),
                                            outer.getResult(0))
              .getResult();
        });
    Value values = buildIndexed(
        rewriter, loc, valuesType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          SmallVector<Value> at(out);
          Value i = tensor::ExtractOp::create(b, l, indices, out);
          at[axis] = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
          return tensor::ExtractOp::create(b, l, x, at);
        });
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

} // namespace

void populateIndexingLoweringPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<ScatterElementsLowering, ScatterNDLowering, GatherNDLowering,
               MaxUnpoolLowering, OneHotLowering, CumSumLowering,
               ConvTransposeLowering, TopKLowering>(converter,
                                                    patterns.getContext());
}

} // namespace infer::lowering
