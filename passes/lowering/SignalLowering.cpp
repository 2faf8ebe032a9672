//===- SignalLowering.cpp - window functions and Einsum -> linalg ---------===//

#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

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
        rewriter, op.getLoc(), type, [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Type f64 = b.getF64Type();
          Value n = arith::UIToFPOp::create(
              b, l, f64, arith::IndexCastOp::create(b, l, b.getI64Type(), at[0]));
          Value phase = arith::MulFOp::create(b, l, n,
                                              scalarConstant(b, l, f64, 2 * M_PI / period));
          Value v = arith::SubFOp::create(
              b, l, scalarConstant(b, l, f64, a0),
              arith::MulFOp::create(b, l, scalarConstant(b, l, f64, a1),
                                    math::CosOp::create(b, l, phase)));
          if (a2 != 0) {
            Value twice = arith::MulFOp::create(b, l, phase, scalarConstant(b, l, f64, 2));
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

/// Einsum without ellipsis: one linalg.generic over the equation's letters;
/// letters missing from the output are reductions.
struct EinsumLowering final : OpConversionPattern<EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    std::string equation;
    for (char c : op.getEquation()) {
      if (c != ' ') {
        equation.push_back(c);
      }
    }
    if (equation.find("...") != std::string::npos) {
      return rewriter.notifyMatchFailure(op, "ellipsis");
    }
    auto arrow = equation.find("->");
    std::string lhs = equation.substr(0, arrow);
    SmallVector<std::string> terms;
    for (StringRef term : llvm::split(lhs, ',')) {
      terms.push_back(term.str());
    }
    if (terms.size() != adaptor.getInputs().size()) {
      return rewriter.notifyMatchFailure(op, "term count");
    }
    std::string out;
    if (arrow != std::string::npos) {
      out = equation.substr(arrow + 2);
    } else { // Implicit: letters appearing once, sorted.
      for (char c = 'A'; c <= 'z'; ++c) {
        if (std::count(lhs.begin(), lhs.end(), c) == 1) {
          out.push_back(c);
        }
      }
    }
    std::string letters = out;
    for (char c : lhs) {
      if (c != ',' && letters.find(c) == std::string::npos) {
        letters.push_back(c);
      }
    }
    MLIRContext *ctx = rewriter.getContext();
    auto mapOf = [&](const std::string &term) {
      SmallVector<AffineExpr> exprs;
      for (char c : term) {
        exprs.push_back(getAffineDimExpr(letters.find(c), ctx));
      }
      return AffineMap::get(letters.size(), 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps;
    for (const std::string &term : terms) {
      maps.push_back(mapOf(term));
    }
    maps.push_back(mapOf(out));
    SmallVector<utils::IteratorType> iterators;
    for (size_t i = 0; i < letters.size(); ++i) {
      iterators.push_back(i < out.size() ? utils::IteratorType::parallel
                                         : utils::IteratorType::reduction);
    }
    auto type = loweredTensorType(op.getOutput().getType());
    Type t = type.getElementType();
    bool isFloat = isa<FloatType>(t);
    Value init = filledTensor(rewriter, op.getLoc(), type,
                              scalarConstant(rewriter, op.getLoc(), t, 0));
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, adaptor.getInputs(), ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = args[0];
          for (Value v : args.drop_front().drop_back()) {
            product = isFloat ? arith::MulFOp::create(b, l, product, v).getResult()
                              : arith::MulIOp::create(b, l, product, v).getResult();
          }
          Value acc = args.back();
          linalg::YieldOp::create(b, l, isFloat
                                           ? arith::AddFOp::create(b, l, acc, product).getResult()
                                           : arith::AddIOp::create(b, l, acc, product).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
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
  patterns.add<WindowLowering<BlackmanWindowOp>>(converter, ctx, 0.42, 0.5, 0.08);
  patterns.add<EinsumLowering>(converter, ctx);
}

} // namespace infer::lowering
