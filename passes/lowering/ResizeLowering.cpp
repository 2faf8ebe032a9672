//===- ResizeLowering.cpp - Resize, GridSample, RoiAlign -> linalg -------===//
//
// Each output element maps back to a source coordinate per axis with the
// op's coordinate transformation; nearest mode rounds it, linear and cubic
// modes blend the 2^k or 4^k neighbours along the k resized axes. Scales given
// as an operand are read at run time, so the coordinates match ONNX even when
// the scale is not out/in exactly.
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

/// `f` (f32) as an index clamped to [0, size - 1].
Value clampedIndex(OpBuilder &b, Location l, Value f, int64_t size) {
  Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), f);
  return clampIndex(b, l, arith::IndexCastOp::create(b, l, b.getIndexType(), i),
                    size);
}

/// The two (index, weight) neighbours of source coordinate `c`.
SmallVector<std::pair<Value, Value>> linearTaps(OpBuilder &b, Location l,
                                                Value c, int64_t size) {
  Type f32 = b.getF32Type();
  Value one = scalarConstant(b, l, f32, 1);
  Value fl = math::FloorOp::create(b, l, c);
  Value w = arith::SubFOp::create(b, l, c, fl);
  return {{clampedIndex(b, l, fl, size), arith::SubFOp::create(b, l, one, w)},
          {clampedIndex(b, l, arith::AddFOp::create(b, l, fl, one), size), w}};
}

/// The weights of Keys' cubic kernel (coefficient `a`) for the four pixels
/// at distances r + 1, r, 1 - r and 2 - r from a point.
SmallVector<Value> keysWeights(OpBuilder &b, Location l, Value r, double a) {
  Type f32 = b.getF32Type();
  auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, l, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return arith::SubFOp::create(b, l, p, q).getResult();
  };
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, l, p, q).getResult();
  };
  // Near (|s| <= 1) and far (1 < |s| < 2) parts of the kernel.
  auto near = [&](Value s) {
    return add(mul(mul(sub(mul(fc(a + 2), s), fc(a + 3)), s), s), fc(1));
  };
  auto far = [&](Value s) {
    return sub(mul(add(mul(sub(mul(fc(a), s), fc(5 * a)), s), fc(8 * a)), s),
               fc(4 * a));
  };
  return {far(add(r, fc(1))), near(r), near(sub(fc(1), r)), far(sub(fc(2), r))};
}

/// The four (index, weight) neighbours of source coordinate `c` for cubic
/// interpolation with coefficient `a` (Keys' kernel), as ONNX defines them:
/// the neighbours are base-1 .. base+2 where base is the pixel left of `c`
/// (one further left when `c` is a whole number), so the ratio c - base is in
/// (0, 1]. Out-of-range neighbours repeat the edge pixel, or with
/// `excludeOutside` get weight 0 and the others are renormalized.
SmallVector<std::pair<Value, Value>> cubicTaps(OpBuilder &b, Location l,
                                               Value c, int64_t size, double a,
                                               bool excludeOutside) {
  Type f32 = b.getF32Type();
  auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, l, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return arith::SubFOp::create(b, l, p, q).getResult();
  };
  Value fl = math::FloorOp::create(b, l, c);
  Value whole = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, c, fl);
  Value base = arith::SelectOp::create(b, l, whole, sub(fl, fc(1)), fl);
  SmallVector<Value> weights = keysWeights(b, l, sub(c, base), a);
  SmallVector<Value> positions;
  for (int64_t k = -1; k <= 2; ++k) {
    positions.push_back(add(base, fc(k)));
  }
  if (excludeOutside) {
    Value total = fc(0);
    for (size_t k = 0; k < weights.size(); ++k) {
      Value inside = arith::AndIOp::create(
          b, l,
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, positions[k],
                                fc(0)),
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, positions[k],
                                fc(size - 1)));
      weights[k] = arith::SelectOp::create(b, l, inside, weights[k], fc(0));
      total = add(total, weights[k]);
    }
    for (Value &w : weights) {
      w = arith::DivFOp::create(b, l, w, total);
    }
  }
  SmallVector<std::pair<Value, Value>> taps;
  for (auto [p, w] : llvm::zip(positions, weights)) {
    taps.push_back({clampedIndex(b, l, p, size), w});
  }
  return taps;
}

struct ResizeLowering final : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The generic variant: a dynamic batch that the Resize keeps (a
    // constant scale of 1 on it, or no scale there).
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
    if (!outType.hasStaticShape()) {
      // The dynamic batch must come through unscaled.
      auto position = llvm::find(axes, 0);
      if (position != axes.end()) {
        DenseElementsAttr constantScales =
            isNone(op.getScales()) ? nullptr
                                   : getConstantElements(op.getScales());
        if (!constantScales ||
            !isa<FloatType>(constantScales.getElementType()) ||
            constantScales.getValues<APFloat>()[position - axes.begin()]
                    .convertToDouble() != 1.0) {
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

/// GridSample on 4-d inputs: nearest, bilinear or bicubic sampling at the
/// grid's normalized coordinates, with zeros, border or reflection padding.
struct GridSampleLowering final : OpConversionPattern<GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    StringRef mode = op.getMode();
    bool nearest = mode == "nearest",
         bicubic = mode == "bicubic" || mode == "cubic";
    if (xType.getRank() != 4) {
      return rewriter.notifyMatchFailure(op, "4-d inputs only");
    }
    auto type = loweredTensorType(op.getY().getType());
    bool alignCorners = op.getAlignCorners() != 0;
    StringRef padding = op.getPaddingMode();
    Value x = adaptor.getX(), grid = adaptor.getGrid();
    int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
    Type t = type.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> o) {
          Type f = b.getF32Type();
          auto fc = [&](double v) { return scalarConstant(b, l, f, v); };
          auto add = [&](Value p, Value q) {
            return arith::AddFOp::create(b, l, p, q).getResult();
          };
          auto sub = [&](Value p, Value q) {
            return arith::SubFOp::create(b, l, p, q).getResult();
          };
          auto mul = [&](Value p, Value q) {
            return arith::MulFOp::create(b, l, p, q).getResult();
          };
          // Border and reflection padding move a coordinate into the image.
          auto pad = [&](Value v, int64_t size) {
            if (padding == "border") {
              v = arith::MinimumFOp::create(
                  b, l, arith::MaximumFOp::create(b, l, v, fc(0)),
                  fc(size - 1));
            } else if (padding == "reflection") {
              // Reflect into [lo, hi] (pixel edges or centers).
              double lo = alignCorners ? 0 : -0.5,
                     hi = alignCorners ? size - 1 : size - 0.5;
              double span = hi - lo;
              if (span > 0) {
                Value d = math::AbsFOp::create(b, l, sub(v, fc(lo)));
                Value flips = math::FloorOp::create(
                    b, l, arith::DivFOp::create(b, l, d, fc(span)));
                Value extra = sub(d, mul(flips, fc(span)));
                Value odd = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::ONE,
                    sub(flips,
                        mul(math::FloorOp::create(b, l, mul(flips, fc(0.5))),
                            fc(2))),
                    fc(0));
                v = arith::SelectOp::create(b, l, odd, sub(fc(hi), extra),
                                            add(fc(lo), extra));
              } else {
                v = fc(0);
              }
              v = arith::MinimumFOp::create(
                  b, l, arith::MaximumFOp::create(b, l, v, fc(0)),
                  fc(size - 1));
            }
            return v;
          };
          auto coord = [&](int64_t c, int64_t size) {
            Value g = tensor::ExtractOp::create(
                b, l, grid,
                ValueRange{o[0], o[2], o[3], indexConstant(b, l, c)});
            g = castScalar(b, l, g, f, false, false);
            // Unnormalize [-1, 1] to pixel coordinates.
            Value v =
                alignCorners
                    ? mul(mul(add(g, fc(1)), fc(0.5)), fc(size - 1))
                    : mul(sub(mul(add(g, fc(1)), fc(size)), fc(1)), fc(0.5));
            // Bicubic pads each of its 16 taps instead (below).
            return bicubic ? v : pad(v, size);
          };
          Value gx = coord(0, width), gy = coord(1, height);
          // One pixel, zero outside the image (zeros padding).
          auto pixel = [&](Value fy, Value fx) {
            Value iy = arith::FPToSIOp::create(b, l, b.getI64Type(), fy);
            Value ix = arith::FPToSIOp::create(b, l, b.getI64Type(), fx);
            auto inRange = [&](Value i, int64_t size) {
              return arith::AndIOp::create(
                  b, l,
                  arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::sge, i,
                      scalarConstant(b, l, b.getI64Type(), 0)),
                  arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::slt, i,
                      scalarConstant(b, l, b.getI64Type(), size)));
            };
            Value ok = arith::AndIOp::create(b, l, inRange(iy, height),
                                             inRange(ix, width));
            auto clampIdx = [&](Value i, int64_t size) {
              Value c = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
              c = arith::MaxSIOp::create(b, l, c, indexConstant(b, l, 0));
              return arith::MinSIOp::create(b, l, c,
                                            indexConstant(b, l, size - 1))
                  .getResult();
            };
            Value v = tensor::ExtractOp::create(
                b, l, x,
                ValueRange{o[0], o[1], clampIdx(iy, height),
                           clampIdx(ix, width)});
            v = castScalar(b, l, v, f, false, false);
            return arith::SelectOp::create(b, l, ok, v, fc(0)).getResult();
          };
          Value value;
          if (nearest) {
            value = pixel(math::RoundEvenOp::create(b, l, gy),
                          math::RoundEvenOp::create(b, l, gx));
          } else if (bicubic) {
            // Keys' kernel (a = -0.75) over the 4x4 pixels around (gy, gx).
            auto taps = [&](Value c, int64_t size) {
              SmallVector<std::pair<Value, Value>> result;
              Value fl = math::FloorOp::create(b, l, c);
              SmallVector<Value> weights = keysWeights(b, l, sub(c, fl), -0.75);
              for (int64_t k = 0; k < 4; ++k) {
                result.push_back({pad(add(fl, fc(k - 1)), size), weights[k]});
              }
              return result;
            };
            auto ys = taps(gy, height), xs = taps(gx, width);
            value = fc(0);
            for (auto [py, wy] : ys) {
              for (auto [px, wx] : xs) {
                value = add(value, mul(mul(wy, wx), pixel(py, px)));
              }
            }
          } else {
            Value y0 = math::FloorOp::create(b, l, gy),
                  x0 = math::FloorOp::create(b, l, gx);
            Value wy = sub(gy, y0), wx = sub(gx, x0);
            Value y1 = add(y0, fc(1)), x1 = add(x0, fc(1));
            Value top =
                add(mul(pixel(y0, x0), sub(fc(1), wx)), mul(pixel(y0, x1), wx));
            Value bottom =
                add(mul(pixel(y1, x0), sub(fc(1), wx)), mul(pixel(y1, x1), wx));
            value = add(mul(top, sub(fc(1), wy)), mul(bottom, wy));
          }
          return castScalar(b, l, value, t, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// RoiAlign as ONNX's reference computes it: per output bin, a grid of
/// sampling points (sampling_ratio per side, or ceil(roi size / bins) when
/// 0, known only at run time) each bilinearly interpolated (points more
/// than a pixel outside the map count as 0, others clamp to the edge),
/// averaged or maxed. Arithmetic in f64.
struct RoiAlignLowering final : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto type = loweredTensorType(op.getY().getType());
    if (xType.getRank() != 4 || !isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(op, "4-d float input only");
    }
    Value x = adaptor.getX(), rois = adaptor.getRois(),
          batches = adaptor.getBatchIndices();
    int64_t height = xType.getDimSize(2), width = xType.getDimSize(3);
    int64_t pooledH = type.getDimSize(2), pooledW = type.getDimSize(3);
    bool halfPixel = op.getCoordinateTransformationMode() == "half_pixel";
    bool average = op.getMode() == "avg";
    int64_t ratio = op.getSamplingRatio();
    double scale = op.getSpatialScale().convertToDouble();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> o) {
          Type f64 = b.getF64Type(), i64 = b.getI64Type();
          auto fc = [&](double v) { return scalarConstant(b, l, f64, v); };
          auto add = [&](Value p, Value q) {
            return arith::AddFOp::create(b, l, p, q).getResult();
          };
          auto sub = [&](Value p, Value q) {
            return arith::SubFOp::create(b, l, p, q).getResult();
          };
          auto mul = [&](Value p, Value q) {
            return arith::MulFOp::create(b, l, p, q).getResult();
          };
          auto div = [&](Value p, Value q) {
            return arith::DivFOp::create(b, l, p, q).getResult();
          };
          auto toF = [&](Value index) {
            return arith::SIToFPOp::create(
                       b, l, f64, arith::IndexCastOp::create(b, l, i64, index))
                .getResult();
          };
          auto roi = [&](int64_t k) {
            Value v = tensor::ExtractOp::create(
                b, l, rois, ValueRange{o[0], indexConstant(b, l, k)});
            return sub(mul(castScalar(b, l, v, f64, false, false), fc(scale)),
                       fc(halfPixel ? 0.5 : 0.0));
          };
          Value startW = roi(0), startH = roi(1);
          Value roiW = sub(roi(2), startW), roiH = sub(roi(3), startH);
          if (!halfPixel) { // Malformed ROIs become 1x1.
            roiW = arith::MaximumFOp::create(b, l, roiW, fc(1));
            roiH = arith::MaximumFOp::create(b, l, roiH, fc(1));
          }
          Value binH = div(roiH, fc(pooledH)), binW = div(roiW, fc(pooledW));
          auto gridOf = [&](Value size, int64_t bins) -> Value {
            if (ratio > 0) {
              return indexConstant(b, l, ratio);
            }
            Value n = math::CeilOp::create(b, l, div(size, fc(bins)));
            return arith::IndexCastOp::create(
                b, l, b.getIndexType(), arith::FPToSIOp::create(b, l, i64, n));
          };
          Value gridH = gridOf(roiH, pooledH), gridW = gridOf(roiW, pooledW);
          Value gridHF = toF(gridH), gridWF = toF(gridW);
          Value batch = arith::IndexCastOp::create(
              b, l, b.getIndexType(),
              tensor::ExtractOp::create(b, l, batches, ValueRange{o[0]}));
          batch = arith::MaxSIOp::create(b, l, batch, indexConstant(b, l, 0));
          batch = arith::MinSIOp::create(
              b, l, batch, indexConstant(b, l, xType.getDimSize(0) - 1));
          // The bilinear sample at (y, x): the four weighted pixels.
          auto sample = [&](OpBuilder &nb, Location nl, Value y, Value xx) {
            auto nfc = [&](double v) { return scalarConstant(nb, nl, f64, v); };
            Value outside = arith::OrIOp::create(
                nb, nl,
                arith::OrIOp::create(
                    nb, nl,
                    arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT, y,
                                          nfc(-1)),
                    arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT, y,
                                          nfc(height))),
                arith::OrIOp::create(
                    nb, nl,
                    arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OLT, xx,
                                          nfc(-1)),
                    arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT, xx,
                                          nfc(width))));
            SmallVector<Value, 2> lo, hi, frac;
            for (auto [c, size] :
                 {std::make_pair(y, height), std::make_pair(xx, width)}) {
              Value v = arith::MaximumFOp::create(nb, nl, c, nfc(0));
              Value low = math::FloorOp::create(nb, nl, v);
              Value atEdge = arith::CmpFOp::create(
                  nb, nl, arith::CmpFPredicate::OGE, low, nfc(size - 1));
              low = arith::SelectOp::create(nb, nl, atEdge, nfc(size - 1), low);
              v = arith::SelectOp::create(nb, nl, atEdge, low, v);
              Value high = arith::SelectOp::create(
                  nb, nl, atEdge, low,
                  arith::AddFOp::create(nb, nl, low, nfc(1)));
              auto index = [&](Value f) {
                return arith::IndexCastOp::create(
                           nb, nl, nb.getIndexType(),
                           arith::FPToSIOp::create(nb, nl, nb.getI64Type(), f))
                    .getResult();
              };
              lo.push_back(index(low));
              hi.push_back(index(high));
              frac.push_back(arith::SubFOp::create(nb, nl, v, low));
            }
            auto pixel = [&](Value py, Value px) {
              Value v = tensor::ExtractOp::create(
                  nb, nl, x, ValueRange{batch, o[1], py, px});
              return castScalar(nb, nl, v, f64, false, false);
            };
            Value ly = frac[0], lx = frac[1];
            Value hy = arith::SubFOp::create(nb, nl, nfc(1), ly);
            Value hx = arith::SubFOp::create(nb, nl, nfc(1), lx);
            SmallVector<Value, 4> terms = {
                arith::MulFOp::create(nb, nl,
                                      arith::MulFOp::create(nb, nl, hy, hx),
                                      pixel(lo[0], lo[1])),
                arith::MulFOp::create(nb, nl,
                                      arith::MulFOp::create(nb, nl, hy, lx),
                                      pixel(lo[0], hi[1])),
                arith::MulFOp::create(nb, nl,
                                      arith::MulFOp::create(nb, nl, ly, hx),
                                      pixel(hi[0], lo[1])),
                arith::MulFOp::create(nb, nl,
                                      arith::MulFOp::create(nb, nl, ly, lx),
                                      pixel(hi[0], hi[1]))};
            for (Value &t : terms) {
              t = arith::SelectOp::create(nb, nl, outside, nfc(0), t);
            }
            return terms;
          };
          Value binY = add(startH, mul(toF(o[2]), binH));
          Value binX = add(startW, mul(toF(o[3]), binW));
          Value init = average ? fc(0) : fc(-INFINITY);
          // Sampling point k of a bin: start + (k + 0.5) * bin / grid.
          auto point = [&](OpBuilder &nb, Location nl, Value start, Value k,
                           Value bin, Value grid) -> Value {
            Value kf = arith::SIToFPOp::create(
                nb, nl, f64,
                arith::IndexCastOp::create(nb, nl, nb.getI64Type(), k));
            Value offset = arith::MulFOp::create(
                nb, nl,
                arith::AddFOp::create(nb, nl, kf,
                                      scalarConstant(nb, nl, f64, 0.5)),
                bin);
            return arith::AddFOp::create(
                nb, nl, start, arith::DivFOp::create(nb, nl, offset, grid));
          };
          auto rows = scf::ForOp::create(
              b, l, indexConstant(b, l, 0), gridH, indexConstant(b, l, 1),
              ValueRange{init},
              [&](OpBuilder &rb, Location rl, Value iy, ValueRange rowAcc) {
                Value y = point(rb, rl, binY, iy, binH, gridHF);
                auto cols = scf::ForOp::create(
                    rb, rl, indexConstant(rb, rl, 0), gridW,
                    indexConstant(rb, rl, 1), ValueRange{rowAcc[0]},
                    [&](OpBuilder &cb, Location cl, Value ix, ValueRange acc) {
                      Value xx = point(cb, cl, binX, ix, binW, gridWF);
                      SmallVector<Value, 4> terms = sample(cb, cl, y, xx);
                      Value next;
                      if (average) {
                        next = acc[0];
                        for (Value t : terms) {
                          next = arith::AddFOp::create(cb, cl, next, t);
                        }
                      } else {
                        Value best = terms[0];
                        for (Value t : ArrayRef<Value>(terms).drop_front()) {
                          best = arith::MaximumFOp::create(cb, cl, best, t);
                        }
                        next = arith::MaximumFOp::create(cb, cl, acc[0], best);
                      }
                      scf::YieldOp::create(cb, cl, next);
                    });
                scf::YieldOp::create(rb, rl, cols.getResult(0));
              });
          Value count = mul(gridHF, gridWF);
          Value none = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                             count, fc(0));
          Value v = average ? div(rows.getResult(0),
                                  arith::MaximumFOp::create(b, l, count, fc(1)))
                            : arith::SelectOp::create(b, l, none, fc(0),
                                                      rows.getResult(0))
                                  .getResult();
          return castScalar(b, l, v, type.getElementType(), false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateResizeLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<ResizeLowering, GridSampleLowering, RoiAlignLowering>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
