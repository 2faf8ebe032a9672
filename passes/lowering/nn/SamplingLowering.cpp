//===- SamplingLowering.cpp - GridSample, RoiAlign -> linalg --------------===//
//
// Ops that sample an input at computed fractional coordinates, with the
// taps of tensor/Interpolation.h.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/tensor/Interpolation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

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

void populateSamplingLoweringPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<GridSampleLowering, RoiAlignLowering>(converter,
                                                     patterns.getContext());
}

} // namespace infer::lowering
