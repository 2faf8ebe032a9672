//===- ShapeLowering.cpp - data movement ops -> tensor/linalg -------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/tensor/IndexArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using namespace index_arith;

struct ConstantLowering final : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = loweredTensorType(op.getType());
    if (!type) {
      return rewriter.notifyMatchFailure(op, "unsupported constant type");
    }
    Attribute value = op.getValue();
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      value = dense.getType() == type ? dense
                                      : dense.bitcast(type.getElementType());
    } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
    } else {
      return rewriter.notifyMatchFailure(op, "unsupported constant attribute");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(value));
    return success();
  }
};

struct IdentityLowering final : OpConversionPattern<IdentityOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!loweredAnyShapeType(op.getType())) {
      return failure();
    }
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// Reshape, Flatten, Squeeze, Unsqueeze: the result type says it all.
template <typename Op>
struct ReshapeLikeLowering final : StaticPattern<Op> {
  using StaticPattern<Op>::StaticPattern;
  LogicalResult lower(Op op, typename Op::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getOperands()[0];
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), input,
                                     this->resultType(op->getResult(0))));
    return success();
  }
  /// One dynamic result dim follows from the element count; several, when
  /// only unit dims come and go.
  bool supportsDynamic(Op op) const override {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto from = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    return type && (type.getNumDynamicDims() <= 1 ||
                    (from && reshapeDimSources(from, type)));
  }
};

/// Flatten to [prod(dims before axis), prod(dims from axis)], each size a
/// product computed at run time where a dim is dynamic.
struct FlattenLowering final : StaticPattern<FlattenOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(FlattenOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t axis =
        op.getAxis() < 0 ? op.getAxis() + type.getRank() : op.getAxis();
    SizeMath m(rewriter, loc);
    SmallVector<OpFoldResult> sizes = {m.constant(1), m.constant(1)};
    for (int64_t d = 0; d < type.getRank(); ++d) {
      OpFoldResult &size = sizes[d < axis ? 0 : 1];
      size = m.mul(size, dimSize(rewriter, loc, input, d));
    }
    Value result = reshapeToSizes(rewriter, loc, input, sizes);
    rewriter.replaceOp(
        op, castTo(rewriter, loc, result, resultType(op.getOutput())));
    return success();
  }
  bool supportsDynamic(FlattenOp) const override { return true; }
};

struct TransposeLowering final : StaticPattern<TransposeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(TransposeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getTransposed());
    SmallVector<int64_t> perm;
    int64_t rank = type.getRank();
    for (int64_t i = 0; i < rank; ++i) {
      perm.push_back(op.getPerm() ? (*op.getPerm())[i] : rank - 1 - i);
    }
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm) {
      sizes.push_back(dimSize(rewriter, op.getLoc(), adaptor.getData(), p));
    }
    Value init = emptyTensor(rewriter, op.getLoc(), type, sizes);
    auto transpose = linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                 adaptor.getData(), init, perm);
    rewriter.replaceOp(op, transpose->getResult(0));
    return success();
  }
  bool supportsDynamic(TransposeOp) const override { return true; }
};

struct ConcatLowering final : StaticPattern<ConcatOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(ConcatOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = resultType(op.getConcatResult());
    Location loc = op.getLoc();
    int64_t axis = *normalizeAxis(op.getAxis(), type.getRank());
    // The result: the first input's dims, the inputs' sizes summed along
    // the axis (at run time when one is dynamic).
    SmallVector<OpFoldResult> resultSizes;
    ValueRange inputs = adaptor.getInputs();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      resultSizes.push_back(dimSize(rewriter, loc, inputs.front(), d));
    }
    SizeMath m(rewriter, loc);
    OpFoldResult total = m.constant(0);
    for (Value input : inputs) {
      total = m.add(total, dimSize(rewriter, loc, input, axis));
    }
    resultSizes[axis] = total;
    Value result = emptyTensor(rewriter, loc, type, resultSizes);
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto inType = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      offsets[axis] = offset;
      SmallVector<OpFoldResult> sizes,
          strides(type.getRank(), rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < inType.getRank(); ++d) {
        sizes.push_back(dimSize(rewriter, loc, input, d));
        // A dynamic dim off the axis must match the result's, or the
        // insertion would write out of bounds.
        if (d != axis && inType.isDynamicDim(d) && i > 0 && checksEnabled(op)) {
          Value same = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq,
              getValueOrCreateConstantIndexOp(rewriter, loc, sizes.back()),
              getValueOrCreateConstantIndexOp(rewriter, loc, resultSizes[d]));
          assertAtRunTime(rewriter, op, same,
                          "dimension " + std::to_string(d) + " of input " +
                              std::to_string(i) +
                              " differs from the first input's (at run time)");
        }
      }
      if (!inType.hasStaticShape() || inType.getNumElements() > 0) {
        result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                               offsets, sizes, strides);
      }
      offset = m.add(offset, sizes[axis]);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
  bool supportsDynamic(ConcatOp) const override { return true; }
};

struct SplitLowering final : StaticPattern<SplitOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(SplitOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t axis = *normalizeAxis(op.getAxis(), inType.getRank());
    // Dynamic dims (never the split axis) are the input's, read once.
    SmallVector<OpFoldResult> inSizes;
    for (int64_t d = 0; d < inType.getRank(); ++d) {
      inSizes.push_back(dimSize(rewriter, op.getLoc(), adaptor.getInput(), d));
    }
    // A run-time length along the axis (a reshape's -1 that the types could
    // not resolve) must be the parts' sum, which the types know.
    if (inType.isDynamicDim(axis)) {
      int64_t total = 0;
      for (Value result : op.getOutputs()) {
        total += resultType(result).getDimSize(axis);
      }
      Value same = arith::CmpIOp::create(
          rewriter, op.getLoc(), arith::CmpIPredicate::eq,
          getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), inSizes[axis]),
          indexConstant(rewriter, op.getLoc(), total));
      assertAtRunTime(rewriter, op, same,
                      "the input's length along the axis is not the sum of "
                      "the parts' (" +
                          std::to_string(total) + ") (at run time)");
    }
    SmallVector<Value> results;
    int64_t offset = 0;
    for (Value result : op.getOutputs()) {
      auto type = resultType(result);
      SmallVector<OpFoldResult> sizes;
      for (auto [d, size] : llvm::enumerate(type.getShape())) {
        sizes.push_back(ShapedType::isDynamic(size)
                            ? inSizes[d]
                            : OpFoldResult(rewriter.getIndexAttr(size)));
      }
      if (type.getDimSize(axis) == 0) {
        // Nothing to read (a slice at the end of the axis would not verify).
        results.push_back(emptyTensor(rewriter, op.getLoc(), type, sizes));
        continue;
      }
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      offsets[axis] = rewriter.getIndexAttr(offset);
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        rewriter.getIndexAttr(1));
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), type, adaptor.getInput(), offsets, sizes,
          strides));
      offset += type.getDimSize(axis);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
  /// The generic variant: dynamic dims anywhere; along the split axis only
  /// with run-time checks (parts of static lengths are sliced from it, so
  /// its length must be checked to be their sum).
  bool supportsDynamic(SplitOp op) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!inType || inType.getRank() == 0) {
      return false;
    }
    std::optional<int64_t> axis = normalizeAxis(op.getAxis(), inType.getRank());
    return axis && (!inType.isDynamicDim(*axis) || checksEnabled(op)) &&
           llvm::all_of(op.getOutputs(), [&](Value v) {
             auto t = dyn_cast<RankedTensorType>(v.getType());
             if (!t || t.getRank() != inType.getRank() ||
                 t.isDynamicDim(*axis)) {
               return false;
             }
             // A part's dynamic dims are the input's (a slice's type
             // follows its sizes).
             for (int64_t d = 0; d < t.getRank(); ++d) {
               if (t.isDynamicDim(d) != inType.isDynamicDim(d) && d != *axis) {
                 return false;
               }
             }
             return true;
           });
  }
};

/// The result length along each dim of a Slice whose input has the sizes
/// `dims` and whose bounds are run-time values (ONNX's clamping: [0, dim]
/// going forward, [-1, dim - 1] going back; max(0, ceil((end - start) /
/// step))).
SmallVector<OpFoldResult> sliceLengths(OpBuilder &b, Location l,
                                       ArrayRef<Value> dims, Value starts,
                                       Value ends, Value axes, Value steps,
                                       int64_t entries) {
  int64_t rank = dims.size();
  auto read = [&](Value tensor, int64_t j) {
    Value v = tensor::ExtractOp::create(b, l, tensor,
                                        ValueRange{indexConstant(b, l, j)});
    return arith::IndexCastOp::create(b, l, b.getIndexType(), v).getResult();
  };
  auto sel = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, l, c, x, y).getResult();
  };
  auto lt = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, y)
        .getResult();
  };
  auto clamp = [&](Value v, Value lo, Value hi) {
    return arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, v, lo), hi)
        .getResult();
  };
  SmallVector<Value> lengths(dims);
  Value zero = indexConstant(b, l, 0);
  Value minusOne = indexConstant(b, l, -1);
  for (int64_t j = 0; j < entries; ++j) {
    Value axis = axes ? read(axes, j) : indexConstant(b, l, j);
    axis =
        sel(lt(axis, zero),
            arith::AddIOp::create(b, l, axis, indexConstant(b, l, rank)), axis);
    Value step = steps ? read(steps, j) : indexConstant(b, l, 1);
    Value forward = lt(zero, step);
    for (int64_t d = 0; d < rank; ++d) {
      Value dim = dims[d];
      auto wrap = [&](Value v) {
        return sel(lt(v, zero), arith::AddIOp::create(b, l, v, dim), v);
      };
      Value lo = sel(forward, zero, minusOne);
      Value hi = sel(forward, dim, arith::AddIOp::create(b, l, dim, minusOne));
      Value start = clamp(wrap(read(starts, j)), lo, hi);
      Value end = clamp(wrap(read(ends, j)), lo, hi);
      // ceil((end - start) / step) for either sign of the step.
      Value span = sel(forward, arith::SubIOp::create(b, l, end, start),
                       arith::SubIOp::create(b, l, start, end));
      Value magnitude =
          sel(forward, step, arith::SubIOp::create(b, l, zero, step));
      Value count = arith::CeilDivSIOp::create(b, l, span, magnitude);
      count = arith::MaxSIOp::create(b, l, count, zero);
      Value here = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, axis,
                                         indexConstant(b, l, d));
      lengths[d] = sel(here, count, lengths[d]);
    }
  }
  return llvm::to_vector(
      llvm::map_range(lengths, [](Value v) { return OpFoldResult(v); }));
}

/// Slice: starts, axes and steps are read when the model runs (constant
/// ones fold away in LLVM), so run-time parameters work too, on data of any
/// shape. Dynamic data sliced along static dims by constant parameters (the
/// common case) is one `tensor.extract_slice` instead.
struct SliceLowering final : StaticPattern<SliceOp> {
  using StaticPattern::StaticPattern;
  bool supportsDynamic(SliceOp op) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    return inType && inType.getRank() > 0;
  }

  /// Constant starts, axes and positive steps, and only static dims sliced;
  /// the other dims keep their run-time size.
  static bool isStaticSlice(SliceOp op) {
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto starts = constantInts(op.getStarts());
    auto axes =
        isNone(op.getAxes())
            ? std::optional<SmallVector<int64_t>>(SmallVector<int64_t>())
            : constantInts(op.getAxes());
    auto steps =
        isNone(op.getSteps())
            ? std::optional<SmallVector<int64_t>>(SmallVector<int64_t>())
            : constantInts(op.getSteps());
    if (!inType || !starts || !axes || !steps) {
      return false;
    }
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    for (size_t j = 0; j < starts->size(); ++j) {
      int64_t axis = axes->empty() ? j : (*axes)[j];
      axis = axis < 0 ? axis + inType.getRank() : axis;
      if (axis < 0 || axis >= inType.getRank() || inType.isDynamicDim(axis) ||
          outType.isDynamicDim(axis) || (!steps->empty() && (*steps)[j] <= 0)) {
        return false;
      }
    }
    return true;
  }

  LogicalResult lower(SliceOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getData().getType());
    auto type = resultType(op.getOutput());
    if (!inType.hasStaticShape() && isStaticSlice(op)) {
      Location loc = op.getLoc();
      int64_t rank = inType.getRank();
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
          strides(rank, rewriter.getIndexAttr(1)), sizes;
      for (int64_t d = 0; d < rank; ++d) {
        sizes.push_back(dimSize(rewriter, loc, adaptor.getData(), d));
      }
      auto starts = *constantInts(op.getStarts());
      auto axes = isNone(op.getAxes()) ? SmallVector<int64_t>()
                                       : *constantInts(op.getAxes());
      auto steps = isNone(op.getSteps()) ? SmallVector<int64_t>()
                                         : *constantInts(op.getSteps());
      for (size_t j = 0; j < starts.size(); ++j) {
        int64_t axis = axes.empty() ? j : axes[j];
        axis = axis < 0 ? axis + rank : axis;
        int64_t dim = inType.getDimSize(axis);
        int64_t start = starts[j] < 0 ? starts[j] + dim : starts[j];
        offsets[axis] =
            rewriter.getIndexAttr(std::clamp<int64_t>(start, 0, dim));
        strides[axis] = rewriter.getIndexAttr(steps.empty() ? 1 : steps[j]);
        sizes[axis] = rewriter.getIndexAttr(type.getDimSize(axis));
      }
      rewriter.replaceOp(op, tensor::ExtractSliceOp::create(
                                 rewriter, loc, type, adaptor.getData(),
                                 offsets, sizes, strides));
      return success();
    }
    int64_t rank = inType.getRank();
    int64_t entries =
        cast<RankedTensorType>(adaptor.getStarts().getType()).getDimSize(0);
    Value data = adaptor.getData(), starts = adaptor.getStarts();
    Value axes = isNone(op.getAxes()) ? Value() : adaptor.getAxes();
    Value steps = isNone(op.getSteps()) ? Value() : adaptor.getSteps();
    SmallVector<Value> dims;
    for (int64_t d = 0; d < rank; ++d) {
      dims.push_back(getValueOrCreateConstantIndexOp(
          rewriter, op.getLoc(), dimSize(rewriter, op.getLoc(), data, d)));
    }
    SmallVector<OpFoldResult> sizes;
    if (!type.hasStaticShape()) {
      sizes = sliceLengths(rewriter, op.getLoc(), dims, starts,
                           adaptor.getEnds(), axes, steps, entries);
    }
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          auto read = [&](Value tensor, int64_t j) {
            Value v = tensor::ExtractOp::create(b, l, tensor,
                                                ValueRange{idx(b, l, j)});
            return arith::IndexCastOp::create(b, l, b.getIndexType(), v)
                .getResult();
          };
          auto lt = [&](Value x, Value y) {
            return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, y)
                .getResult();
          };
          auto sel = [&](Value c, Value x, Value y) {
            return arith::SelectOp::create(b, l, c, x, y).getResult();
          };
          SmallVector<Value> begin(rank, idx(b, l, 0)),
              stride(rank, idx(b, l, 1));
          for (int64_t j = 0; j < entries; ++j) {
            Value axis = axes ? read(axes, j) : idx(b, l, j);
            axis = sel(lt(axis, idx(b, l, 0)),
                       addI(b, l, axis, idx(b, l, rank)), axis);
            Value start = read(starts, j);
            Value step = steps ? read(steps, j) : idx(b, l, 1);
            Value positive = lt(idx(b, l, 0), step);
            for (int64_t d = 0; d < rank; ++d) {
              Value dim = dims[d];
              Value match = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::eq, axis, idx(b, l, d));
              Value st =
                  sel(lt(start, idx(b, l, 0)), addI(b, l, start, dim), start);
              // Clamp to [0, dim] going forward, [-1, dim - 1] going back.
              Value lo = sel(positive, idx(b, l, 0), idx(b, l, -1));
              Value hi = sel(positive, dim, addI(b, l, dim, idx(b, l, -1)));
              st = arith::MaxSIOp::create(b, l, st, lo);
              st = arith::MinSIOp::create(b, l, st, hi);
              begin[d] = sel(match, st, begin[d]);
              stride[d] = sel(match, step, stride[d]);
            }
          }
          SmallVector<Value> in;
          for (int64_t d = 0; d < rank; ++d) {
            in.push_back(addI(b, l, begin[d], mulI(b, l, out[d], stride[d])));
          }
          return tensor::ExtractOp::create(b, l, data, in);
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandLowering final : StaticPattern<ExpandOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(ExpandOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), resultType(op.getOutput()),
                             adaptor.getInput(),
                             [](OpBuilder &, Location, ValueRange args) {
                               return args[0];
                             }));
    return success();
  }
};

struct TileLowering final : StaticPattern<TileOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(TileOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    Value input = adaptor.getInput();
    Value result =
        buildIndexed(rewriter, op.getLoc(), resultType(op.getOutput()),
                     [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
                       SmallVector<Value> in;
                       for (auto [d, o] : llvm::enumerate(out)) {
                         in.push_back(arith::RemUIOp::create(
                             b, l, o, idx(b, l, inType.getDimSize(d))));
                       }
                       return tensor::ExtractOp::create(b, l, input, in);
                     });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Shape of a tensor with dynamic dims (static ones fold away before):
/// its dims at run time.
struct ShapeOfLowering final : OpConversionPattern<ShapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = loweredTensorType(op.getShape().getType());
    auto inType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (!type || !inType) {
      return rewriter.notifyMatchFailure(op, "unranked data");
    }
    Location loc = op.getLoc();
    int64_t rank = inType.getRank();
    auto clampAxis = [&](int64_t a) {
      return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank);
    };
    int64_t start = clampAxis(op.getStart());
    int64_t end = op.getEnd() ? clampAxis(*op.getEnd()) : rank;
    SmallVector<Value> dims;
    for (int64_t d = start; d < end; ++d) {
      Value size = getValueOrCreateConstantIndexOp(
          rewriter, loc, dimSize(rewriter, loc, adaptor.getData(), d));
      dims.push_back(arith::IndexCastOp::create(rewriter, loc,
                                                type.getElementType(), size));
    }
    if (static_cast<int64_t>(dims.size()) != type.getNumElements()) {
      return rewriter.notifyMatchFailure(
          op, "result length differs from start..end");
    }
    rewriter.replaceOp(
        op, tensor::FromElementsOp::create(rewriter, loc, type, dims));
    return success();
  }
};

} // namespace

void populateShapeLoweringPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantLowering, IdentityLowering,
               ReshapeLikeLowering<ReshapeOp>, FlattenLowering,
               ReshapeLikeLowering<SqueezeOp>, ReshapeLikeLowering<UnsqueezeOp>,
               TransposeLowering, ConcatLowering, SplitLowering, SliceLowering,
               ShapeOfLowering, ExpandLowering, TileLowering>(converter, ctx);
}

} // namespace infer::lowering
