//===- SpectralLowering.cpp - STFT and MelWeightMatrix --------------------===//
//
// Both take their sizes from scalar inputs (frame step and length; bin
// counts, the DFT length). The result type the model declares fixes the
// output's shape; the run checks that the scalars give that shape (with
// run-time checks on) and computes each element by its definition in f64,
// as ONNX's reference does.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
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

/// The scalar in a 0-d or 1-element tensor, as an index.
Value scalarIndex(OpBuilder &b, Location l, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> at(type.getRank(), indexConstant(b, l, 0));
  Value v = tensor::ExtractOp::create(b, l, tensor, at);
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}

/// The scalar in a 0-d or 1-element tensor, as f64.
Value scalarF64(OpBuilder &b, Location l, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> at(type.getRank(), indexConstant(b, l, 0));
  return castScalar(b, l, tensor::ExtractOp::create(b, l, tensor, at),
                    b.getF64Type(), false, false);
}

Value equalIndex(OpBuilder &b, Location l, Value x, int64_t v) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x,
                               indexConstant(b, l, v));
}

/// STFT: output[b, f, k] = sum over n < W of x[b, f*step + n] w[n]
/// e^(-2 pi i k n / L), L the frame (FFT) length, W the window's (L without
/// one), f < 1 + (len - L) / step and k < L (L/2 + 1 one-sided).
struct StftLowering final : CheckedPattern<STFTOp> {
  using CheckedPattern::CheckedPattern;
  LogicalResult lower(STFTOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getSignal();
    auto xType = cast<RankedTensorType>(x.getType());
    auto type = loweredTensorType(op.getOutput().getType());
    if (xType.getRank() != 3 || type.getRank() != 4 ||
        !isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(
          op, "needs a [batch, length, 1|2] float signal");
    }
    bool complexIn = xType.getDimSize(2) == 2;
    bool hasWindow = !isNone(op.getWindow());
    int64_t signalLength = xType.getDimSize(1);
    Value step = scalarIndex(rewriter, loc, adaptor.getFrameStep());
    Value length =
        !isNone(op.getFrameLength())
            ? scalarIndex(rewriter, loc, adaptor.getFrameLength())
            : indexConstant(rewriter, loc,
                            hasWindow ? cast<RankedTensorType>(
                                            adaptor.getWindow().getType())
                                            .getDimSize(0)
                                      : signalLength);
    Value taps = hasWindow ? indexConstant(rewriter, loc,
                                           cast<RankedTensorType>(
                                               adaptor.getWindow().getType())
                                               .getDimSize(0))
                           : length;
    // The declared frames and bins must be what the scalars give.
    Value frames = arith::AddIOp::create(
        rewriter, loc, indexConstant(rewriter, loc, 1),
        arith::DivSIOp::create(
            rewriter, loc,
            arith::SubIOp::create(rewriter, loc,
                                  indexConstant(rewriter, loc, signalLength),
                                  length),
            step));
    Value bins =
        op.getOnesided() != 0
            ? arith::AddIOp::create(
                  rewriter, loc,
                  arith::DivUIOp::create(rewriter, loc, length,
                                         indexConstant(rewriter, loc, 2)),
                  indexConstant(rewriter, loc, 1))
                  .getResult()
            : length;
    Value ok = arith::AndIOp::create(
        rewriter, loc, equalIndex(rewriter, loc, frames, type.getDimSize(1)),
        equalIndex(rewriter, loc, bins, type.getDimSize(2)));
    ok = arith::AndIOp::create(
        rewriter, loc, ok,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, step,
                              indexConstant(rewriter, loc, 0)));
    assertAtRunTime(rewriter, op, ok,
                    "frame_step and frame_length give another number of frames "
                    "or bins than "
                    "the model declares for the output");
    Type f64 = rewriter.getF64Type();
    Value lengthF = arith::UIToFPOp::create(
        rewriter, loc, f64,
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                   length));
    Value window = hasWindow ? adaptor.getWindow() : Value();
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value zero = scalarConstant(b, l, f64, 0);
          Value start = arith::MulIOp::create(b, l, at[1], step);
          ValueRange sums = forLoop(
              b, l, indexConstant(b, l, 0), taps, {zero, zero},
              [&](OpBuilder &nb, Location nl, Value n, ValueRange acc) {
                // Positions past the signal read zero (the reference pads).
                Value pos = arith::AddIOp::create(nb, nl, start, n);
                Value inside = arith::CmpIOp::create(
                    nb, nl, arith::CmpIPredicate::slt, pos,
                    indexConstant(nb, nl, signalLength));
                Value clamped = arith::MinUIOp::create(
                    nb, nl, pos, indexConstant(nb, nl, signalLength - 1));
                auto read = [&](int64_t part) {
                  Value v = tensor::ExtractOp::create(
                      nb, nl, x,
                      ValueRange{at[0], clamped, indexConstant(nb, nl, part)});
                  v = castScalar(nb, nl, v, f64, false, false);
                  return arith::SelectOp::create(nb, nl, inside, v,
                                                 scalarConstant(nb, nl, f64, 0))
                      .getResult();
                };
                Value re = read(0);
                Value im = complexIn ? read(1) : scalarConstant(nb, nl, f64, 0);
                if (window) {
                  Value w = castScalar(
                      nb, nl,
                      tensor::ExtractOp::create(nb, nl, window, ValueRange{n}),
                      f64, false, false);
                  re = arith::MulFOp::create(nb, nl, re, w);
                  im = arith::MulFOp::create(nb, nl, im, w);
                }
                // Phase -2 pi (k n mod L) / L, exact for whole periods.
                Value kn = arith::RemUIOp::create(
                    nb, nl, arith::MulIOp::create(nb, nl, at[2], n), length);
                Value phase = arith::DivFOp::create(
                    nb, nl,
                    arith::MulFOp::create(
                        nb, nl,
                        arith::UIToFPOp::create(
                            nb, nl, f64,
                            arith::IndexCastOp::create(nb, nl, nb.getI64Type(),
                                                       kn)),
                        scalarConstant(nb, nl, f64, -2 * M_PI)),
                    lengthF);
                auto [outRe, outIm] = scalar::rotate(nb, nl, re, im, phase);
                return SmallVector<Value>{
                    arith::AddFOp::create(nb, nl, acc[0], outRe),
                    arith::AddFOp::create(nb, nl, acc[1], outIm)};
              });
          Value v = arith::SelectOp::create(b, l, equalIndex(b, l, at[3], 1),
                                            sums[1], sums[0]);
          return castScalar(b, l, v, type.getElementType(), false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// MelWeightMatrix: triangular filters between num_mel_bins + 2 points
/// equally spaced in mel from lower to upper_edge_hertz, mapped to
/// spectrogram bins floor((dft_length + 1) hz / sample_rate).
struct MelWeightMatrixLowering final : CheckedPattern<MelWeightMatrixOp> {
  using CheckedPattern::CheckedPattern;
  LogicalResult lower(MelWeightMatrixOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = loweredTensorType(op.getOutput().getType());
    if (type.getRank() != 2) {
      return rewriter.notifyMatchFailure(op, "needs a 2-d result");
    }
    Value melBins = scalarIndex(rewriter, loc, adaptor.getNumMelBins());
    Value dftLength = scalarIndex(rewriter, loc, adaptor.getDftLength());
    Value spectrogramBins = arith::AddIOp::create(
        rewriter, loc,
        arith::DivUIOp::create(rewriter, loc, dftLength,
                               indexConstant(rewriter, loc, 2)),
        indexConstant(rewriter, loc, 1));
    Value ok = arith::AndIOp::create(
        rewriter, loc,
        equalIndex(rewriter, loc, spectrogramBins, type.getDimSize(0)),
        equalIndex(rewriter, loc, melBins, type.getDimSize(1)));
    assertAtRunTime(rewriter, op, ok,
                    "dft_length and num_mel_bins give another shape than the "
                    "model declares "
                    "for the output");
    Type f64 = rewriter.getF64Type();
    Value rate = scalarF64(rewriter, loc, adaptor.getSampleRate());
    Value lengthPlusOne = arith::AddFOp::create(
        rewriter, loc, scalarF64(rewriter, loc, adaptor.getDftLength()),
        scalarConstant(rewriter, loc, f64, 1));
    // mel(hz) = 2595 log1p(hz / 700) / ln 10, the log in the inputs' type.
    auto mel = [&](Value hzTensor) {
      Value hz =
          tensor::ExtractOp::create(rewriter, loc, hzTensor, ValueRange{});
      Type t = hz.getType();
      Value l = math::Log1pOp::create(
          rewriter, loc,
          arith::DivFOp::create(rewriter, loc, hz,
                                scalarConstant(rewriter, loc, t, 700)));
      return arith::DivFOp::create(
          rewriter, loc,
          arith::MulFOp::create(rewriter, loc,
                                castScalar(rewriter, loc, l, f64, false, false),
                                scalarConstant(rewriter, loc, f64, 2595)),
          scalarConstant(rewriter, loc, f64, std::log(10.0)));
    };
    Value low = mel(adaptor.getLowerEdgeHertz());
    Value high = mel(adaptor.getUpperEdgeHertz());
    Value points = arith::UIToFPOp::create(
        rewriter, loc, f64,
        arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI64Type(),
            arith::AddIOp::create(rewriter, loc, melBins,
                                  indexConstant(rewriter, loc, 2))));
    Value melStep = arith::DivFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, high, low), points);
    // The spectrogram bin of point p.
    auto binOf = [&](OpBuilder &b, Location l, Value p) {
      Value pf = arith::UIToFPOp::create(
          b, l, f64, arith::IndexCastOp::create(b, l, b.getI64Type(), p));
      Value m = arith::AddFOp::create(
          b, l, arith::MulFOp::create(b, l, pf, melStep), low);
      Value hz = arith::MulFOp::create(
          b, l, scalarConstant(b, l, f64, 700),
          math::ExpM1Op::create(
              b, l,
              arith::MulFOp::create(
                  b, l,
                  arith::DivFOp::create(b, l, m,
                                        scalarConstant(b, l, f64, 2595)),
                  scalarConstant(b, l, f64, std::log(10.0)))));
      Value bin = math::FloorOp::create(
          b, l,
          arith::DivFOp::create(
              b, l, arith::MulFOp::create(b, l, lengthPlusOne, hz), rate));
      return bin;
    };
    Value result = buildIndexed(
        rewriter, loc, type, [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value j = arith::UIToFPOp::create(
              b, l, f64,
              arith::IndexCastOp::create(b, l, b.getI64Type(), at[0]));
          Value left = binOf(b, l, at[1]);
          Value center = binOf(
              b, l, arith::AddIOp::create(b, l, at[1], indexConstant(b, l, 1)));
          Value right = binOf(
              b, l, arith::AddIOp::create(b, l, at[1], indexConstant(b, l, 2)));
          auto cmp = [&](arith::CmpFPredicate p, Value u, Value v) {
            return arith::CmpFOp::create(b, l, p, u, v).getResult();
          };
          auto both = [&](Value u, Value v) {
            return arith::AndIOp::create(b, l, u, v).getResult();
          };
          Value zero = scalarConstant(b, l, f64, 0),
                one = scalarConstant(b, l, f64, 1);
          // Rising edge left..center, then (written after) falling
          // center..right.
          Value rise =
              arith::DivFOp::create(b, l, arith::SubFOp::create(b, l, j, left),
                                    arith::SubFOp::create(b, l, center, left));
          Value onRise = both(cmp(arith::CmpFPredicate::OGT, center, left),
                              both(cmp(arith::CmpFPredicate::OGE, j, left),
                                   cmp(arith::CmpFPredicate::OLE, j, center)));
          Value v = arith::SelectOp::create(b, l, onRise, rise, zero);
          Value peak = both(cmp(arith::CmpFPredicate::OEQ, center, left),
                            cmp(arith::CmpFPredicate::OEQ, j, center));
          v = arith::SelectOp::create(b, l, peak, one, v);
          Value fall =
              arith::DivFOp::create(b, l, arith::SubFOp::create(b, l, right, j),
                                    arith::SubFOp::create(b, l, right, center));
          Value onFall = both(cmp(arith::CmpFPredicate::OGT, right, center),
                              both(cmp(arith::CmpFPredicate::OGE, j, center),
                                   cmp(arith::CmpFPredicate::OLT, j, right)));
          v = arith::SelectOp::create(b, l, onFall, fall, v);
          return castScalar(b, l, v, type.getElementType(), false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateSpectralLoweringPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<StftLowering, MelWeightMatrixLowering>(converter,
                                                      patterns.getContext());
}

} // namespace infer::lowering
