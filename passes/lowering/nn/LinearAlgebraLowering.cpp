//===- LinearAlgebraLowering.cpp - Det, Einsum -> linalg ------------------===//
//
// Det factors each matrix by Gaussian elimination with partial pivoting
// (as LAPACK's getrf does) in f64, on one working copy of the whole batch:
// the determinant is the product of the pivots, negated once per row swap.
// Einsum becomes one generic over the equation's letters.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Einsum.h"
#include "dialects/graph/IR/GraphOps.h"
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

struct DetLowering final : OpConversionPattern<DetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(adaptor.getX().getType());
    auto type = loweredTensorType(op.getY().getType());
    int64_t rank = inType.getRank();
    if (rank < 2 ||
        inType.getDimSize(rank - 1) != inType.getDimSize(rank - 2) ||
        !isa<FloatType>(type.getElementType())) {
      return rewriter.notifyMatchFailure(op, "needs float square matrices");
    }
    int64_t n = inType.getDimSize(rank - 1);
    int64_t batch = inType.getNumElements() / (n * n);
    Type f64 = rewriter.getF64Type();
    // The working copy, [batch, n, n] in f64.
    Value work = reshapeTo(
        rewriter, loc, adaptor.getX(),
        RankedTensorType::get({batch, n, n}, inType.getElementType()));
    work = buildElementwise(rewriter, loc,
                            RankedTensorType::get({batch, n, n}, f64), {work},
                            [&](OpBuilder &b, Location l, ValueRange a) {
                              return castScalar(b, l, a[0], f64, false, false);
                            });
    Value dets =
        emptyTensor(rewriter, loc, RankedTensorType::get({batch}, f64));
    auto c = [&](OpBuilder &b, Location l, int64_t v) {
      return indexConstant(b, l, v);
    };
    auto fc = [&](OpBuilder &b, Location l, double v) {
      return scalarConstant(b, l, f64, v);
    };
    auto at = [&](OpBuilder &b, Location l, Value t, Value m, Value i,
                  Value j) {
      return tensor::ExtractOp::create(b, l, t, ValueRange{m, i, j})
          .getResult();
    };
    auto put = [&](OpBuilder &b, Location l, Value v, Value t, Value m, Value i,
                   Value j) {
      return tensor::InsertOp::create(b, l, v, t, ValueRange{m, i, j})
          .getResult();
    };
    ValueRange done = forLoop(
        rewriter, loc, c(rewriter, loc, 0), c(rewriter, loc, batch),
        {work, dets},
        [&](OpBuilder &b, Location l, Value m,
            ValueRange state) -> SmallVector<Value> {
          ValueRange factored = forLoop(
              b, l, c(b, l, 0), c(b, l, n), {state[0], fc(b, l, 1)},
              [&](OpBuilder &b, Location l, Value k,
                  ValueRange acc) -> SmallVector<Value> {
                Value w = acc[0], det = acc[1];
                // The row at or below k with the largest |w[i][k]|.
                Value one = c(b, l, 1);
                ValueRange pivot = forLoop(
                    b, l, arith::AddIOp::create(b, l, k, one), c(b, l, n),
                    {k, math::AbsFOp::create(b, l, at(b, l, w, m, k, k))},
                    [&](OpBuilder &b, Location l, Value i,
                        ValueRange best) -> SmallVector<Value> {
                      Value v =
                          math::AbsFOp::create(b, l, at(b, l, w, m, i, k));
                      Value better = arith::CmpFOp::create(
                          b, l, arith::CmpFPredicate::OGT, v, best[1]);
                      return {
                          arith::SelectOp::create(b, l, better, i, best[0]),
                          arith::SelectOp::create(b, l, better, v, best[1])};
                    });
                Value p = pivot[0];
                w = forLoop(b, l, c(b, l, 0), c(b, l, n), {w},
                            [&](OpBuilder &b, Location l, Value j,
                                ValueRange row) -> SmallVector<Value> {
                              Value vk = at(b, l, row[0], m, k, j);
                              Value vp = at(b, l, row[0], m, p, j);
                              Value t = put(b, l, vp, row[0], m, k, j);
                              return {put(b, l, vk, t, m, p, j)};
                            })[0];
                Value swapped =
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, p, k);
                det = arith::SelectOp::create(
                    b, l, swapped, arith::NegFOp::create(b, l, det), det);
                Value diag = at(b, l, w, m, k, k);
                det = arith::MulFOp::create(b, l, det, diag);
                // A zero pivot means a zero determinant: skip the division.
                Value singular = arith::CmpFOp::create(
                    b, l, arith::CmpFPredicate::OEQ, diag, fc(b, l, 0));
                Value safe =
                    arith::SelectOp::create(b, l, singular, fc(b, l, 1), diag);
                w = forLoop(
                    b, l, arith::AddIOp::create(b, l, k, one), c(b, l, n), {w},
                    [&](OpBuilder &b, Location l, Value i,
                        ValueRange rows) -> SmallVector<Value> {
                      Value f = arith::DivFOp::create(
                          b, l, at(b, l, rows[0], m, i, k), safe);
                      return {forLoop(
                          b, l, k, c(b, l, n), {rows[0]},
                          [&](OpBuilder &b, Location l, Value j,
                              ValueRange cur) -> SmallVector<Value> {
                            Value v = arith::SubFOp::create(
                                b, l, at(b, l, cur[0], m, i, j),
                                arith::MulFOp::create(
                                    b, l, f, at(b, l, cur[0], m, k, j)));
                            return {put(b, l, v, cur[0], m, i, j)};
                          })[0]};
                    })[0];
                return {w, det};
              });
          Value out = tensor::InsertOp::create(b, l, factored[1], state[1],
                                               ValueRange{m});
          return {factored[0], out};
        });
    Value y = buildElementwise(
        rewriter, loc, RankedTensorType::get({batch}, type.getElementType()),
        {done[1]}, [&](OpBuilder &b, Location l, ValueRange a) {
          return castScalar(b, l, a[0], type.getElementType(), false, false);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, type));
    return success();
  }
};

/// Einsum: one linalg.generic over the equation's letters (an ellipsis
/// becomes letters of its own; a letter repeated in a term reads a
/// diagonal); letters missing from the output are reductions.
struct EinsumLowering final : OpConversionPattern<EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Any sizes: a letter's run-time size is read from an operand that
    // has it (the generic variant; dynamic dims of 1 do not broadcast).
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    ValueRange inputs = adaptor.getInputs();
    SmallVector<int64_t> ranks;
    for (Value input : inputs) {
      ranks.push_back(cast<RankedTensorType>(input.getType()).getRank());
    }
    std::string why;
    FailureOr<EinsumEquation> parsed =
        parseEinsum(op.getEquation(), ranks, why);
    if (failed(parsed)) {
      return rewriter.notifyMatchFailure(op, why);
    }
    const SmallVector<std::string> &terms = parsed->terms;
    const std::string &out = parsed->output;
    std::string letters = out;
    for (const std::string &term : terms) {
      for (char c : term) {
        if (letters.find(c) == std::string::npos) {
          letters.push_back(c);
        }
      }
    }
    // The extent of each letter; operands broadcast their size-1 dimensions.
    // A letter no operand has statically takes the first dynamic dim's size.
    llvm::DenseMap<char, int64_t> extent;
    llvm::DenseMap<char, std::pair<Value, int64_t>> dynamicDim;
    for (auto [term, input] : llvm::zip(terms, inputs)) {
      auto shape = cast<RankedTensorType>(input.getType()).getShape();
      for (auto [d, c, size] : llvm::enumerate(term, shape)) {
        if (ShapedType::isDynamic(size)) {
          dynamicDim.try_emplace(c, input, d);
        } else {
          extent[c] = std::max(extent.lookup(c), size);
        }
      }
    }
    // Every dynamic dim is read as its letter's size: checked at run time.
    if (!dynamicDim.empty()) {
      if (!checksEnabled(op)) {
        return rewriter.notifyMatchFailure(op, "dynamic dims need checks");
      }
      for (auto [term, input] : llvm::zip(terms, inputs)) {
        auto inType = cast<RankedTensorType>(input.getType());
        for (auto [d, c] : llvm::enumerate(term)) {
          auto [source, sourceDim] = dynamicDim.lookup(c);
          bool sizesLetter = extent.lookup(c) <= 1 && source == input &&
                             sourceDim == static_cast<int64_t>(d);
          if (!inType.isDynamicDim(d) || sizesLetter) {
            continue;
          }
          Value want =
              extent.lookup(c) > 1
                  ? indexConstant(rewriter, op.getLoc(), extent.lookup(c))
                  : tensor::DimOp::create(rewriter, op.getLoc(), source,
                                          sourceDim)
                        .getResult();
          Value same = arith::CmpIOp::create(
              rewriter, op.getLoc(), arith::CmpIPredicate::eq,
              tensor::DimOp::create(rewriter, op.getLoc(), input, d), want);
          assertAtRunTime(
              rewriter, op, same,
              std::string("the operands disagree on the size of '") + c +
                  "' (at run time)");
        }
      }
    }
    MLIRContext *ctx = rewriter.getContext();
    auto mapOf = [&](const std::string &term, ArrayRef<int64_t> shape) {
      SmallVector<AffineExpr> exprs;
      for (auto [i, c] : llvm::enumerate(term)) {
        bool broadcast =
            !shape.empty() && shape[i] == 1 && extent.lookup(c) > 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(letters.find(c), ctx));
      }
      return AffineMap::get(letters.size(), 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps;
    for (auto [term, input] : llvm::zip(terms, inputs)) {
      maps.push_back(
          mapOf(term, cast<RankedTensorType>(input.getType()).getShape()));
    }
    maps.push_back(mapOf(out, {}));
    SmallVector<utils::IteratorType> iterators;
    for (size_t i = 0; i < letters.size(); ++i) {
      iterators.push_back(i < out.size() ? utils::IteratorType::parallel
                                         : utils::IteratorType::reduction);
    }
    auto type = loweredAnyShapeType(op.getOutput().getType());
    Type t = type.getElementType();
    bool isFloat = isa<FloatType>(t);
    SmallVector<OpFoldResult> sizes;
    for (auto [d, c] : llvm::enumerate(out)) {
      if (!type.isDynamicDim(d)) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
      } else if (extent.lookup(c) > 1 || !dynamicDim.count(c)) {
        sizes.push_back(
            rewriter.getIndexAttr(std::max<int64_t>(extent.lookup(c), 1)));
      } else {
        auto [input, dim] = dynamicDim.lookup(c);
        sizes.push_back(dimSize(rewriter, op.getLoc(), input, dim));
      }
    }
    Value init =
        filledTensor(rewriter, op.getLoc(), type,
                     scalarConstant(rewriter, op.getLoc(), t, 0), sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = args[0];
          for (Value v : args.drop_front().drop_back()) {
            product = isFloat
                          ? arith::MulFOp::create(b, l, product, v).getResult()
                          : arith::MulIOp::create(b, l, product, v).getResult();
          }
          Value acc = args.back();
          linalg::YieldOp::create(
              b, l,
              isFloat ? arith::AddFOp::create(b, l, acc, product).getResult()
                      : arith::AddIOp::create(b, l, acc, product).getResult());
        });
    rewriter.replaceOp(op,
                       castTo(rewriter, op.getLoc(), generic.getResult(0),
                              loweredAnyShapeType(op.getOutput().getType())));
    return success();
  }
};

} // namespace

void populateLinearAlgebraLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<DetLowering>(converter, patterns.getContext());
  patterns.add<EinsumLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
