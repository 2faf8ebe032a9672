//===- RearrangeLowering.cpp - Pad, block and sequence rearrangements ----===//
//
// Data movement where each output element reads one input element found by
// index arithmetic: Pad (constant, edge, reflect, wrap),
// DepthToSpace/SpaceToDepth and ReverseSequence.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/tensor/IndexArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using namespace index_arith;

/// Maps output index `out` of a padded dimension of size `dim` (pads
/// before it: `begin`) to the input index to read, per ONNX Pad `mode`;
/// `inside` is and-ed with whether the position is inside the input (only
/// the constant mode uses it).
Value padSourceIndex(OpBuilder &b, Location l, StringRef mode, Value dim,
                     Value out, Value begin, Value &inside) {
  Value i = subI(b, l, out, begin);
  Value zero = idx(b, l, 0), last = subI(b, l, dim, idx(b, l, 1));
  Value below = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, zero);
  Value above = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, i, last);
  if (mode == "reflect") {
    // Reflect without repeating the edge, period 2 * (dim - 1); a dim of 1
    // (period 1) reads its only element.
    Value period =
        arith::MaxSIOp::create(b, l, addI(b, l, last, last), idx(b, l, 1));
    Value m = arith::RemSIOp::create(b, l, i, period);
    Value mNeg =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, m, zero);
    m = arith::SelectOp::create(b, l, mNeg, addI(b, l, m, period), m);
    Value mirrored = subI(b, l, period, m);
    Value high =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, m, last);
    return arith::SelectOp::create(b, l, high, mirrored, m);
  }
  if (mode == "wrap") {
    Value n = dim;
    Value m = arith::RemSIOp::create(b, l, i, n);
    Value mNeg =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, m, zero);
    return arith::SelectOp::create(b, l, mNeg, addI(b, l, m, n), m);
  }
  // constant and edge: clamp; constant then selects the pad value.
  i = arith::SelectOp::create(b, l, below, zero, i);
  i = arith::SelectOp::create(b, l, above, last, i);
  Value outside = arith::OrIOp::create(b, l, below, above);
  inside = arith::AndIOp::create(
      b, l, inside,
      arith::XOrIOp::create(b, l, outside,
                            arith::ConstantIntOp::create(b, l, 1, 1)));
  return i;
}

struct PadLowering final : StaticPattern<PadOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(PadOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getData().getType());
    int64_t rank = inType.getRank();
    auto pads = constantInts(op.getPads());
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    if (!isNone(op.getAxes())) {
      auto c = constantInts(op.getAxes());
      if (!c) {
        return rewriter.notifyMatchFailure(op, "axes must be constant");
      }
      axes.clear();
      for (int64_t a : *c) {
        axes.push_back(*normalizeAxis(a, rank));
      }
    }
    // Pads known only at run time are read per element; the result shape
    // is static, so only the begin pads matter.
    std::optional<SmallVector<int64_t>> begin;
    if (pads) {
      begin = SmallVector<int64_t>(rank, 0);
      for (size_t i = 0; i < axes.size(); ++i) {
        (*begin)[axes[i]] = (*pads)[i];
      }
    }
    StringRef mode = op.getMode();
    Value data = adaptor.getData(), padTensor = adaptor.getPads();
    Location loc = op.getLoc();
    // The input's sizes, and the result's: dynamic ones are the input's
    // plus the (constant) pads.
    SmallVector<Value> dims;
    SmallVector<OpFoldResult> sizes;
    // Dims whose pads are known to be 0 are read in place.
    SmallVector<bool> unpadded(rank, true);
    auto outType = resultType(op.getOutput());
    for (int64_t d = 0; d < rank; ++d) {
      dims.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc, dimSize(rewriter, loc, data, d)));
      int64_t before = 0, after = 0;
      for (size_t i = 0; i < axes.size(); ++i) {
        if (axes[i] == d && !pads) {
          unpadded[d] = false;
        } else if (axes[i] == d) {
          before = (*pads)[i];
          after = (*pads)[i + axes.size()];
          unpadded[d] = before == 0 && after == 0;
        }
      }
      if (!outType.isDynamicDim(d)) {
        sizes.push_back(rewriter.getIndexAttr(outType.getDimSize(d)));
        continue;
      }
      sizes.push_back(before + after == 0
                          ? dims[d]
                          : addI(rewriter, loc, dims[d],
                                 idx(rewriter, loc, before + after)));
      // Edge, reflect and wrap read the input's elements: an empty dim
      // (known only now) has none to read.
      if (!unpadded[d] && mode != "constant" && checksEnabled(op)) {
        Value nonEmpty =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                  dims[d], idx(rewriter, loc, 0));
        assertAtRunTime(rewriter, op, nonEmpty,
                        "dimension " + std::to_string(d) + " is empty: mode '" +
                            mode.str() + "' has no element to pad with");
      }
    }
    Value padValue = adaptor.getConstantValue();
    Type element = inType.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), resultType(op.getOutput()),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          SmallVector<Value> in;
          Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
          // Position of each dim in the pads list (-1: not padded).
          SmallVector<int64_t> slot(rank, -1);
          for (size_t i = 0; i < axes.size(); ++i) {
            slot[axes[i]] = i;
          }
          for (int64_t d = 0; d < rank; ++d) {
            if (unpadded[d]) {
              in.push_back(out[d]);
              continue;
            }
            Value start;
            if (begin) {
              start = idx(b, l, (*begin)[d]);
            } else if (slot[d] < 0) {
              start = idx(b, l, 0);
            } else {
              Value p = tensor::ExtractOp::create(
                  b, l, padTensor, ValueRange{idx(b, l, slot[d])});
              start = arith::IndexCastOp::create(b, l, b.getIndexType(), p);
            }
            in.push_back(
                padSourceIndex(b, l, mode, dims[d], out[d], start, inside));
          }
          Value v = tensor::ExtractOp::create(b, l, data, in);
          if (mode != "constant") {
            return v;
          }
          // constant_value is a scalar, or (as some exporters write it) a
          // one-element tensor.
          Value fill = scalarConstant(b, l, element, 0);
          if (padValue && !isa<NoneType>(padValue.getType())) {
            auto valueType = cast<RankedTensorType>(padValue.getType());
            SmallVector<Value> first(valueType.getRank(), idx(b, l, 0));
            fill = tensor::ExtractOp::create(b, l, padValue, first);
          }
          return arith::SelectOp::create(b, l, inside, v, fill).getResult();
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
  /// Dynamic dims anywhere, with constant pads and axes (the result's
  /// sizes follow from them).
  bool supportsDynamic(PadOp op) const override {
    auto type = dyn_cast<RankedTensorType>(op.getData().getType());
    return type && constantInts(op.getPads()) &&
           (isNone(op.getAxes()) || constantInts(op.getAxes()));
  }
};

template <typename Op>
struct BlockRearrangeLowering final : StaticPattern<Op> {
  using StaticPattern<Op>::StaticPattern;
  LogicalResult lower(Op op, typename Op::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto type = this->resultType(op.getOutput());
    auto inType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t bs = op.getBlocksize();
    bool toSpace = std::is_same_v<Op, DepthToSpaceOp>;
    bool crd = false;
    if constexpr (std::is_same_v<Op, DepthToSpaceOp>) {
      crd = op.getMode() == "CRD";
    }
    Value input = adaptor.getInput();
    // Dynamic result dims: the batch, and the spatial dims scaled by the
    // block size.
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < 4; ++d) {
      if (!type.isDynamicDim(d)) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        continue;
      }
      Value in = getValueOrCreateConstantIndexOp(
          rewriter, loc, dimSize(rewriter, loc, input, d));
      Value block = idx(rewriter, loc, bs);
      sizes.push_back(
          d < 2 ? in
          : toSpace
              ? mulI(rewriter, loc, in, block)
              : arith::DivUIOp::create(rewriter, loc, in, block).getResult());
    }
    Value result = buildIndexed(
        rewriter, loc, type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> o) {
          Value bsV = idx(b, l, bs);
          SmallVector<Value> in(4);
          in[0] = o[0];
          if (toSpace) {
            Value oc = idx(b, l, type.getDimSize(1));
            Value bh = arith::RemUIOp::create(b, l, o[2], bsV);
            Value bw = arith::RemUIOp::create(b, l, o[3], bsV);
            in[2] = arith::DivUIOp::create(b, l, o[2], bsV);
            in[3] = arith::DivUIOp::create(b, l, o[3], bsV);
            Value block = addI(b, l, mulI(b, l, bh, bsV), bw);
            in[1] =
                crd ? addI(b, l, mulI(b, l, o[1], idx(b, l, bs * bs)), block)
                    : addI(b, l, mulI(b, l, block, oc), o[1]);
          } else {
            Value ic = idx(b, l, inType.getDimSize(1));
            Value block = arith::DivUIOp::create(b, l, o[1], ic);
            Value c = arith::RemUIOp::create(b, l, o[1], ic);
            Value bh = arith::DivUIOp::create(b, l, block, bsV);
            Value bw = arith::RemUIOp::create(b, l, block, bsV);
            in[1] = c;
            in[2] = addI(b, l, mulI(b, l, o[2], bsV), bh);
            in[3] = addI(b, l, mulI(b, l, o[3], bsV), bw);
          }
          return tensor::ExtractOp::create(b, l, input, in);
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
  /// Dynamic batch and spatial dims; the channels are static.
  bool supportsDynamic(Op op) const override {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getOutput().getType());
    return inType && outType && inType.getRank() == 4 &&
           outType.getRank() == 4 && !inType.isDynamicDim(1) &&
           !outType.isDynamicDim(1);
  }
};

/// ReverseSequence: along the time axis, the first seq_len[b] steps of each
/// batch entry are reversed, the rest copied.
struct ReverseSequenceLowering final : StaticPattern<ReverseSequenceOp> {
  using StaticPattern::StaticPattern;
  LogicalResult lower(ReverseSequenceOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t batchAxis = op.getBatchAxis(), timeAxis = op.getTimeAxis();
    Value input = adaptor.getInput(), lens = adaptor.getSequenceLens();
    Value result = buildIndexed(
        rewriter, op.getLoc(), resultType(op.getY()),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value len =
              tensor::ExtractOp::create(b, l, lens, ValueRange{out[batchAxis]});
          len = arith::IndexCastOp::create(b, l, b.getIndexType(), len);
          Value t = out[timeAxis];
          Value inside =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, t, len);
          Value reversed = subI(b, l, subI(b, l, len, idx(b, l, 1)), t);
          SmallVector<Value> in(out);
          in[timeAxis] = arith::SelectOp::create(b, l, inside, reversed, t);
          return tensor::ExtractOp::create(b, l, input, in);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateRearrangeLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<PadLowering, BlockRearrangeLowering<DepthToSpaceOp>,
               BlockRearrangeLowering<SpaceToDepthOp>, ReverseSequenceLowering>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
