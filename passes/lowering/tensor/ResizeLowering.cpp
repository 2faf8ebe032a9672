//===- ResizeLowering.cpp - Resize -> linalg ------------------------------===//
//
// Each output element maps back to a source coordinate per axis with the
// op's coordinate transformation; nearest mode rounds it, linear and cubic
// modes blend the 2^k or 4^k neighbours along the k resized axes. Scales given
// as an operand are read at run time, so the coordinates match ONNX even when
// the scale is not out/in exactly.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/SymbolicShapes.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/tensor/Interpolation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

struct ResizeLowering final : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The generic variant: a dynamic batch that the Resize keeps (a
    // constant scale of 1 on it, a size that is the input's own batch, or
    // no scale there).
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!onlyBatchDynamic(op)) {
      return rewriter.notifyMatchFailure(op,
                                         "dynamic dims other than the batch");
    }
    StringRef mode = op.getMode();
    bool cubic = mode == "cubic";
    double cubicA = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside() != 0;
    if (op.getAntialias() != 0 || op.getKeepAspectRatioPolicy() != "stretch") {
      return rewriter.notifyMatchFailure(op, "antialias / aspect ratio policy");
    }
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
    if (!outType.hasStaticShape() || !inType.hasStaticShape()) {
      // The dynamic batch must come through unscaled.
      auto position = llvm::find(axes, 0);
      if (position != axes.end()) {
        DenseElementsAttr constantScales =
            isNone(op.getScales()) ? nullptr
                                   : getConstantElements(op.getScales());
        int64_t slot = position - axes.begin();
        bool unitScale =
            constantScales && isa<FloatType>(constantScales.getElementType()) &&
            constantScales.getNumElements() ==
                static_cast<int64_t>(axes.size()) &&
            constantScales.getValues<APFloat>()[slot].convertToDouble() == 1.0;
        // Sizes computed from the input's own shape keep its batch.
        bool sameSize = !isNone(op.getSizes()) &&
                        shapeEntryIsDim(op.getSizes(), slot, op.getX(), 0);
        if (!unitScale && !sameSize) {
          return rewriter.notifyMatchFailure(
              op, "a dynamic batch with a scale other than 1");
        }
      }
    }
    StringRef ctm = op.getCoordinateTransformationMode();
    bool crop = ctm == "tf_crop_and_resize";
    Value scales = isNone(op.getScales()) ? Value() : adaptor.getScales();
    if (scales &&
        cast<RankedTensorType>(scales.getType()).getNumElements() == 0) {
      scales = Value();
    }
    Value roi = isNone(op.getRoi()) ? Value() : adaptor.getRoi();
    if (crop && !roi) {
      return rewriter.notifyMatchFailure(op, "tf_crop_and_resize without roi");
    }
    Value x = adaptor.getX();
    Type t = outType.getElementType();
    StringRef nearestMode = op.getNearestMode();
    double extrapolation = op.getExtrapolationValue().convertToDouble();
    Type f32 = rewriter.getF32Type();

    Value result = buildIndexed(
        rewriter, op.getLoc(), outType,
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
            int64_t in = inType.getDimSize(d), o = outType.getDimSize(d);
            if (in == o && !crop) {
              continue; // Unresized axis: the identity.
            }
            Value scale = scales
                              ? tensor::ExtractOp::create(
                                    b, l, scales,
                                    ValueRange{indexConstant(b, l, position)})
                                    .getResult()
                              : fc(static_cast<double>(o) / in);
            if (scale.getType() != f32) {
              scale = castScalar(b, l, scale, f32, false, false);
            }
            Value xr = arith::UIToFPOp::create(
                b, l, f32,
                arith::IndexCastOp::create(b, l, b.getI64Type(), out[d]));
            Value src;
            // ONNX measures the resized length as in * scale, unrounded.
            Value length = mulF(fc(in), scale);
            if (ctm == "asymmetric") {
              src = divF(xr, scale);
            } else if (ctm == "tf_half_pixel_for_nn") {
              src = divF(addF(xr, fc(0.5)), scale);
            } else if (ctm == "align_corners") {
              src = o == 1 ? fc(0)
                           : divF(mulF(xr, fc(in - 1)), subF(length, fc(1)));
            } else if (ctm == "pytorch_half_pixel") {
              src =
                  o > 1 ? subF(divF(addF(xr, fc(0.5)), scale), fc(0.5)) : fc(0);
            } else if (ctm == "half_pixel_symmetric") {
              Value adjustment = divF(fc(o), mulF(scale, fc(in)));
              Value offset = mulF(fc(in / 2.0), subF(fc(1), adjustment));
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
              if (o > 1) {
                src = addF(mulF(start, fc(in - 1)),
                           mulF(xr, divF(mulF(subF(end, start), fc(in - 1)),
                                         subF(length, fc(1)))));
              } else {
                src = mulF(mulF(fc(0.5), addF(start, end)), fc(in - 1));
              }
              Value below = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::OLT, src, fc(0));
              Value above = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::OGT, src, fc(in - 1));
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
              at[d] = clampedIndex(b, l, r, inType.getDimSize(d));
            }
            value = tensor::ExtractOp::create(b, l, x, at);
          } else {
            // Linear or cubic: a weighted sum over the tensor product of
            // each resized axis's taps (2 or 4 neighbours).
            SmallVector<int64_t> resized;
            for (int64_t d = 0; d < rank; ++d) {
              if (coords[d]) {
                resized.push_back(d);
              }
            }
            SmallVector<SmallVector<std::pair<Value, Value>>> taps;
            for (int64_t d : resized) {
              taps.push_back(
                  cubic ? cubicTaps(b, l, coords[d], inType.getDimSize(d),
                                    cubicA, excludeOutside)
                        : linearTaps(b, l, coords[d], inType.getDimSize(d)));
            }
            int64_t perAxis = cubic ? 4 : 2, corners = 1;
            for (size_t i = 0; i < resized.size(); ++i) {
              corners *= perAxis;
            }
            Value acc = fc(0);
            for (int64_t corner = 0; corner < corners; ++corner) {
              SmallVector<Value> at(out);
              Value weight = fc(1);
              int64_t rest = corner;
              for (auto [axis, d] : llvm::enumerate(resized)) {
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
        batchSizes(rewriter, op.getLoc(), outType, x));
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateResizeLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<ResizeLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
