//===- SignalLowering.cpp - window functions and DFT -> linalg ------------===//

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

/// a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic) or
/// size - 1 (symmetric).
template <typename Op>
struct WindowLowering final : OpConversionPattern<Op> {
  WindowLowering(const TypeConverter &converter, MLIRContext *ctx, double a0,
                 double a1, double a2)
      : OpConversionPattern<Op>(converter, ctx), a0(a0), a1(a1), a2(a2) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = loweredTensorType(op.getOutput().getType());
    if (!type || type.getRank() != 1) {
      return rewriter.notifyMatchFailure(op, "needs a static 1-d result");
    }
    int64_t size = type.getDimSize(0);
    double period = op.getPeriodic() ? size : size - 1;
    Type t = type.getElementType();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Type f64 = b.getF64Type();
          Value n = arith::UIToFPOp::create(
              b, l, f64,
              arith::IndexCastOp::create(b, l, b.getI64Type(), at[0]));
          Value phase = arith::MulFOp::create(
              b, l, n, scalarConstant(b, l, f64, 2 * M_PI / period));
          Value v = arith::SubFOp::create(
              b, l, scalarConstant(b, l, f64, a0),
              arith::MulFOp::create(b, l, scalarConstant(b, l, f64, a1),
                                    math::CosOp::create(b, l, phase)));
          if (a2 != 0) {
            Value twice = arith::MulFOp::create(b, l, phase,
                                                scalarConstant(b, l, f64, 2));
            v = arith::AddFOp::create(
                b, l, v,
                arith::MulFOp::create(b, l, scalarConstant(b, l, f64, a2),
                                      math::CosOp::create(b, l, twice)));
          }
          return castScalar(b, l, v, t, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  double a0, a1, a2;
};

/// DFT by its definition: each output bin sums the (zero-padded or cut)
/// signal times e^(-+2 pi i k n / N) in f64, with k n reduced mod N so the
/// phase stays exact. The last dimension holds (real[, imaginary]).
struct DftLowering final : OpConversionPattern<DFTOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DFTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Value x = adaptor.getInput();
    auto inType = cast<RankedTensorType>(x.getType());
    auto type = loweredTensorType(op.getOutput().getType());
    int64_t rank = inType.getRank();
    int64_t axis = -2;
    if (!isNone(op.getAxis())) {
      auto axes = constantInts(op.getAxis());
      if (!axes || axes->size() != 1) {
        return rewriter.notifyMatchFailure(op, "axis known only at run time");
      }
      axis = (*axes)[0];
    }
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis > rank - 2 || !isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(
          op, "axis out of range or not a float signal");
    }
    int64_t length = inType.getDimSize(axis);
    int64_t n = length;
    if (!isNone(op.getDftLength())) {
      auto given = constantInts(op.getDftLength());
      if (!given || given->size() != 1 || (*given)[0] < 1) {
        return rewriter.notifyMatchFailure(op,
                                           "dft_length known only at run time");
      }
      n = (*given)[0];
    }
    bool inverse = op.getInverse() != 0;
    bool complexIn = inType.getShape().back() == 2;
    // An inverse one-sided DFT reads a half spectrum (bins 0 .. n/2) and
    // takes the other bins as the conjugates of their mirrors: X[k] =
    // conj(X[n - k]). Its length is the output's.
    bool halfSpectrum = inverse && op.getOnesided() != 0;
    if (halfSpectrum && isNone(op.getDftLength())) {
      n = type.getDimSize(axis);
    }
    if (halfSpectrum && (!complexIn || length != n / 2 + 1)) {
      return rewriter.notifyMatchFailure(
          op, "one-sided inverse needs n/2+1 complex bins");
    }
    int64_t taps = halfSpectrum ? n : std::min(length, n);
    Type f64 = rewriter.getF64Type();
    Value result = buildIndexed(
        rewriter, op.getLoc(), type,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          auto fc = [&](double v) { return scalarConstant(b, l, f64, v); };
          Value k = at[axis];
          Value bigN = indexConstant(b, l, n);
          Value zero = fc(0);
          auto loop = scf::ForOp::create(
              b, l, indexConstant(b, l, 0), indexConstant(b, l, taps),
              indexConstant(b, l, 1), ValueRange{zero, zero},
              [&](OpBuilder &nb, Location nl, Value i, ValueRange acc) {
                SmallVector<Value> src(at);
                src[axis] = i;
                Value mirrored;
                if (halfSpectrum) {
                  mirrored =
                      arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::uge,
                                            i, indexConstant(nb, nl, length));
                  src[axis] = arith::SelectOp::create(
                      nb, nl, mirrored, arith::SubIOp::create(nb, nl, bigN, i),
                      i);
                }
                auto read = [&](int64_t part) {
                  src.back() = indexConstant(nb, nl, part);
                  Value v = tensor::ExtractOp::create(nb, nl, x, src);
                  return castScalar(nb, nl, v, f64, false, false);
                };
                Value re = read(0);
                Value im = complexIn ? read(1) : scalarConstant(nb, nl, f64, 0);
                if (halfSpectrum) {
                  im = arith::SelectOp::create(
                      nb, nl, mirrored, arith::NegFOp::create(nb, nl, im), im);
                }
                Value kn = arith::RemUIOp::create(
                    nb, nl, arith::MulIOp::create(nb, nl, k, i), bigN);
                Value phase = arith::MulFOp::create(
                    nb, nl,
                    arith::UIToFPOp::create(nb, nl, f64,
                                            arith::IndexCastOp::create(
                                                nb, nl, nb.getI64Type(), kn)),
                    scalarConstant(nb, nl, f64, (inverse ? 2 : -2) * M_PI / n));
                auto [outRe, outIm] = scalar::rotate(nb, nl, re, im, phase);
                scf::YieldOp::create(
                    nb, nl,
                    ValueRange{arith::AddFOp::create(nb, nl, acc[0], outRe)
                                   .getResult(),
                               arith::AddFOp::create(nb, nl, acc[1], outIm)
                                   .getResult()});
              });
          Value isIm = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                             at.back(), indexConstant(b, l, 1));
          Value v = arith::SelectOp::create(b, l, isIm, loop.getResult(1),
                                            loop.getResult(0));
          if (inverse) {
            v = arith::DivFOp::create(b, l, v, fc(static_cast<double>(n)));
          }
          return castScalar(b, l, v, type.getElementType(), false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateSignalLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<WindowLowering<HannWindowOp>>(converter, ctx, 0.5, 0.5, 0.0);
  patterns.add<WindowLowering<HammingWindowOp>>(converter, ctx, 25.0 / 46,
                                                21.0 / 46, 0.0);
  patterns.add<WindowLowering<BlackmanWindowOp>>(converter, ctx, 0.42, 0.5,
                                                 0.08);
  patterns.add<DftLowering>(converter, ctx);
}

} // namespace infer::lowering
