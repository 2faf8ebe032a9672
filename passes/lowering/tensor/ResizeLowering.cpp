//===- ResizeLowering.cpp - Resize -> linalg ------------------------------===//
//
// Each output element maps back to a source coordinate per axis with the
// op's coordinate transformation; nearest mode rounds it, linear and cubic
// modes blend the 2^k or 4^k neighbours along the k resized axes. Scales given
// as an operand are read at run time, so the coordinates match ONNX even when
// the scale is not out/in exactly. Constant whole factors take simpler forms:
// nearest a broadcast copy (NearestUpsample.h), linear and cubic one
// depthwise convolution per phase (PhasedResize.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/SymbolicShapes.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/tensor/Interpolation.h"
#include "passes/lowering/tensor/NearestUpsample.h"
#include "passes/lowering/tensor/PhasedResize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

/// What the element loop needs of one resized axis.
struct Resized {
  bool active = false;
  Value in, out;   // lengths (index)
  Value inF, outF; // the same as f32
  Value scale;     // f32
  Value outIsOne;  // i1: an output of length 1
};

struct ResizeLowering final : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Any dim may be dynamic: a resized one is sized at run time from the
    // sizes operand or as floor(in * scale).
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    StringRef mode = op.getMode();
    bool cubic = mode == "cubic";
    double cubicA = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside() != 0;
    if (op.getAntialias() != 0 || op.getKeepAspectRatioPolicy() != "stretch") {
      return rewriter.notifyMatchFailure(op, "antialias / aspect ratio policy");
    }
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(adaptor.getX().getType());
    auto outType = loweredAnyShapeType(op.getY().getType());
    int64_t rank = inType.getRank();
    SmallVector<int64_t> axes;
    if (auto attr = op.getAxes()) {
      for (int64_t a : *attr) {
        axes.push_back(*normalizeAxis(a, rank));
      }
    } else {
      axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    }
    StringRef ctm = op.getCoordinateTransformationMode();
    bool crop = ctm == "tf_crop_and_resize";
    Value scales = isNone(op.getScales()) ? Value() : adaptor.getScales();
    if (scales &&
        cast<RankedTensorType>(scales.getType()).getNumElements() == 0) {
      scales = Value();
    }
    Value sizesOperand = isNone(op.getSizes()) ? Value() : adaptor.getSizes();
    Value roi = isNone(op.getRoi()) ? Value() : adaptor.getRoi();
    if (crop && !roi) {
      return rewriter.notifyMatchFailure(op, "tf_crop_and_resize without roi");
    }
    if (!scales && !sizesOperand) {
      return rewriter.notifyMatchFailure(op, "neither scales nor sizes");
    }
    Value x = adaptor.getX();
    Type t = outType.getElementType();
    StringRef nearestMode = op.getNearestMode();
    double extrapolation = op.getExtrapolationValue().convertToDouble();
    Type f32 = rewriter.getF32Type();
    DenseElementsAttr constantScales =
        scales ? getConstantElements(op.getScales()) : nullptr;
    if (constantScales && !isa<FloatType>(constantScales.getElementType())) {
      constantScales = nullptr;
    }
    // Constant scales (or static sizes and no scales) per resized axis:
    // whole factors take the broadcast-copy or phased forms.
    SmallVector<float> axisScales;
    for (auto [slot, d] : llvm::enumerate(axes)) {
      if (constantScales && constantScales.getNumElements() ==
                                static_cast<int64_t>(axes.size())) {
        axisScales.push_back(static_cast<float>(
            constantScales.getValues<APFloat>()[slot].convertToDouble()));
      } else if (!scales && !inType.isDynamicDim(d) &&
                 !outType.isDynamicDim(d)) {
        axisScales.push_back(static_cast<float>(outType.getDimSize(d)) /
                             static_cast<float>(inType.getDimSize(d)));
      }
    }
    if (!crop && axisScales.size() == axes.size()) {
      Value whole;
      if (mode == "nearest") {
        whole = lowerWholeFactorNearest(rewriter, loc, x, outType, axes,
                                        axisScales, ctm, nearestMode);
      } else {
        whole = lowerWholeFactorInterpolation(
            rewriter, loc, x, outType, axes, axisScales,
            ResizeMode{mode, ctm, cubicA, excludeOutside});
      }
      if (whole) {
        rewriter.replaceOp(op, castTo(rewriter, loc, whole, outType));
        return success();
      }
    }
    auto toF32 = [&](Value index) -> Value {
      return arith::UIToFPOp::create(
          rewriter, loc, f32,
          arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                       index));
    };
    // Per resized axis, computed once outside the loops: the input and
    // output lengths (index and f32), the scale, and whether it is the
    // identity (equal static lengths, a constant scale of 1, or sizes
    // taken from the input's own dim).
    SizeMath m(rewriter, loc);
    SmallVector<Resized> resized(rank);
    SmallVector<OpFoldResult> outSizes = sizesOf(rewriter, loc, x);
    for (auto [slot, d] : llvm::enumerate(axes)) {
      Resized &a = resized[d];
      std::optional<int64_t> in = inType.isDynamicDim(d)
                                      ? std::nullopt
                                      : std::optional(inType.getDimSize(d));
      std::optional<int64_t> out = outType.isDynamicDim(d)
                                       ? std::nullopt
                                       : std::optional(outType.getDimSize(d));
      bool unitScale =
          constantScales &&
          constantScales.getNumElements() ==
              static_cast<int64_t>(axes.size()) &&
          constantScales.getValues<APFloat>()[slot].convertToDouble() == 1.0;
      bool ownSize =
          sizesOperand && shapeEntryIsDim(op.getSizes(), slot, op.getX(), d);
      if (!crop && ((in && out && *in == *out) || unitScale || ownSize)) {
        continue; // Unresized axis: the identity.
      }
      a.active = true;
      a.in = m.value(outSizes[d]);
      a.inF = toF32(a.in);
      Value slotIndex = indexConstant(rewriter, loc, slot);
      if (out) {
        a.out = indexConstant(rewriter, loc, *out);
      } else if (sizesOperand) {
        Value size = tensor::ExtractOp::create(rewriter, loc, sizesOperand,
                                               ValueRange{slotIndex});
        a.out = arith::MaxSIOp::create(
            rewriter, loc,
            arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                       size),
            indexConstant(rewriter, loc, 0));
      }
      if (scales) {
        a.scale = tensor::ExtractOp::create(rewriter, loc, scales,
                                            ValueRange{slotIndex});
        if (a.scale.getType() != f32) {
          a.scale = castScalar(rewriter, loc, a.scale, f32, false, false);
        }
      }
      if (!a.out) {
        // ONNX's output length: floor(in * scale) (0 for a negative or NaN
        // scale).
        Value length = arith::MaxNumFOp::create(
            rewriter, loc,
            math::FloorOp::create(
                rewriter, loc,
                arith::MulFOp::create(rewriter, loc, a.inF, a.scale)),
            scalarConstant(rewriter, loc, f32, 0));
        a.out = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getIndexType(),
            arith::FPToUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                    length));
      }
      a.outF = toF32(a.out);
      if (!a.scale) {
        a.scale = arith::DivFOp::create(rewriter, loc, a.outF, a.inF);
      }
      a.outIsOne =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a.out,
                                indexConstant(rewriter, loc, 1));
      outSizes[d] = a.out;
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (!outType.isDynamicDim(d)) {
        outSizes[d] = rewriter.getIndexAttr(outType.getDimSize(d));
      }
    }

    Value result = buildIndexed(
        rewriter, loc, typeOfSizes(outSizes, t),
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
          auto addF = [&](Value p, Value q) {
            return arith::AddFOp::create(b, l, p, q).getResult();
          };
          auto subF = [&](Value p, Value q) {
            return arith::SubFOp::create(b, l, p, q).getResult();
          };
          auto mulF = [&](Value p, Value q) {
            return arith::MulFOp::create(b, l, p, q).getResult();
          };
          auto divF = [&](Value p, Value q) {
            return arith::DivFOp::create(b, l, p, q).getResult();
          };
          // Source coordinate (f32) per resized axis.
          SmallVector<Value> coords(rank);
          Value outside = arith::ConstantIntOp::create(b, l, 0, 1);
          for (auto [position, d] : llvm::enumerate(axes)) {
            const Resized &a = resized[d];
            if (!a.active) {
              continue;
            }
            Value scale = a.scale;
            Value xr = arith::UIToFPOp::create(
                b, l, f32,
                arith::IndexCastOp::create(b, l, b.getI64Type(), out[d]));
            Value src;
            Value inLast = subF(a.inF, fc(1));
            // An output of length 1 samples the middle (or the start).
            auto unlessSingle = [&](Value v, Value single) -> Value {
              return arith::SelectOp::create(b, l, a.outIsOne, single, v);
            };
            // ONNX measures the resized length as in * scale, unrounded.
            Value length = mulF(a.inF, scale);
            if (ctm == "asymmetric") {
              src = divF(xr, scale);
            } else if (ctm == "tf_half_pixel_for_nn") {
              src = divF(addF(xr, fc(0.5)), scale);
            } else if (ctm == "align_corners") {
              src = unlessSingle(divF(mulF(xr, inLast), subF(length, fc(1))),
                                 fc(0));
            } else if (ctm == "pytorch_half_pixel") {
              src = unlessSingle(subF(divF(addF(xr, fc(0.5)), scale), fc(0.5)),
                                 fc(0));
            } else if (ctm == "half_pixel_symmetric") {
              Value adjustment = divF(a.outF, mulF(scale, a.inF));
              Value offset =
                  mulF(mulF(a.inF, fc(0.5)), subF(fc(1), adjustment));
              src = addF(offset, subF(divF(addF(xr, fc(0.5)), scale), fc(0.5)));
            } else if (crop) {
              int64_t n =
                  cast<RankedTensorType>(roi.getType()).getNumElements() / 2;
              auto roiAt = [&](int64_t i) {
                Value v = tensor::ExtractOp::create(
                    b, l, roi, ValueRange{indexConstant(b, l, i)});
                return v.getType() == f32
                           ? v
                           : castScalar(b, l, v, f32, false, false);
              };
              int64_t slot =
                  static_cast<int64_t>(axes.size()) == n ? position : d;
              Value start = roiAt(slot), end = roiAt(slot + n);
              src = unlessSingle(
                  addF(mulF(start, inLast),
                       mulF(xr, divF(mulF(subF(end, start), inLast),
                                     subF(length, fc(1))))),
                  mulF(mulF(fc(0.5), addF(start, end)), inLast));
              Value below = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::OLT, src, fc(0));
              Value above = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::OGT, src, inLast);
              outside = arith::OrIOp::create(
                  b, l, outside, arith::OrIOp::create(b, l, below, above));
            } else { // half_pixel
              src = subF(divF(addF(xr, fc(0.5)), scale), fc(0.5));
            }
            coords[d] = src;
          }
          Value value;
          if (mode == "nearest") {
            SmallVector<Value> at(out);
            for (int64_t d = 0; d < rank; ++d) {
              if (!coords[d]) {
                continue;
              }
              Value c = coords[d], r;
              if (nearestMode == "floor") {
                r = math::FloorOp::create(b, l, c);
              } else if (nearestMode == "ceil") {
                r = math::CeilOp::create(b, l, c);
              } else {
                // Round half toward floor or ceil.
                Value fl = math::FloorOp::create(b, l, c);
                Value frac = subF(c, fl);
                Value half = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::OEQ, frac, fc(0.5));
                Value up = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::OGT, frac, fc(0.5));
                Value tieUp =
                    nearestMode == "round_prefer_ceil"
                        ? half
                        : arith::ConstantIntOp::create(b, l, 0, 1).getResult();
                Value goUp = arith::OrIOp::create(b, l, up, tieUp);
                r = arith::SelectOp::create(b, l, goUp, addF(fl, fc(1)), fl);
              }
              at[d] = clampedIndex(b, l, r, resized[d].in);
            }
            value = tensor::ExtractOp::create(b, l, x, at);
          } else {
            // Linear or cubic: a weighted sum over the tensor product of
            // each resized axis's taps (2 or 4 neighbours).
            SmallVector<int64_t> moving;
            for (int64_t d = 0; d < rank; ++d) {
              if (coords[d]) {
                moving.push_back(d);
              }
            }
            SmallVector<SmallVector<std::pair<Value, Value>>> taps;
            for (int64_t d : moving) {
              Value size = resized[d].in;
              taps.push_back(cubic ? cubicTaps(b, l, coords[d], size, cubicA,
                                               excludeOutside)
                                   : linearTaps(b, l, coords[d], size));
            }
            int64_t perAxis = cubic ? 4 : 2, corners = 1;
            for (size_t i = 0; i < moving.size(); ++i) {
              corners *= perAxis;
            }
            Value acc = fc(0);
            for (int64_t corner = 0; corner < corners; ++corner) {
              SmallVector<Value> at(out);
              Value weight = fc(1);
              int64_t rest = corner;
              for (auto [axis, d] : llvm::enumerate(moving)) {
                auto [index, w] = taps[axis][rest % perAxis];
                rest /= perAxis;
                at[d] = index;
                weight = mulF(weight, w);
              }
              Value v = tensor::ExtractOp::create(b, l, x, at);
              if (v.getType() != f32) {
                v = castScalar(b, l, v, f32, false, false);
              }
              acc = addF(acc, mulF(weight, v));
            }
            value = t == f32 ? acc : castScalar(b, l, acc, t, false, false);
          }
          if (crop) {
            value = arith::SelectOp::create(
                b, l, outside, scalarConstant(b, l, t, extrapolation), value);
          }
          return value;
        },
        outSizes);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, outType));
    return success();
  }
};

} // namespace

void populateResizeLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<ResizeLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
