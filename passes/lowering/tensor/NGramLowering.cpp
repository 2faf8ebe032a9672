//===- NGramLowering.cpp - TfIdfVectorizer --------------------------------===//
//
// TfIdfVectorizer counts, per row of integer tokens, the occurrences of the
// n-grams in its pool. The pool is an attribute, so each n-gram's count
// becomes its own loop: for every skip distance d it applies to (unigrams
// only d = 1, longer n-grams d = 1 .. max_skip_count + 1, as ONNX's
// reference walks its trie) and every start s with s + (n-1)d in the row,
// the n-gram matches when x[s + i d] == pool[i] for each i. The output
// element of an n-gram (ngram_indexes) sums its counts, then TF keeps the
// count, IDF gives the weight (or 1) where it is positive, TFIDF multiplies.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

/// One n-gram of the pool that is counted, and where its count goes.
struct NGram {
  SmallVector<int64_t> tokens;
  int64_t output = 0;
};

struct TfIdfVectorizerLowering final : OpConversionPattern<TfIdfVectorizerOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TfIdfVectorizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    auto yType = loweredTensorType(op.getY().getType());
    if (!op.getPoolInt64s() || xType.getRank() < 1 || xType.getRank() > 2 ||
        !isa<IntegerType>(xType.getElementType())) {
      return rewriter.notifyMatchFailure(op,
                                         "needs integer tokens [C] or [B, C] "
                                         "and pool_int64s");
    }
    // The pool: ngram_counts[k] is where the (k+1)-grams start; every
    // n-gram has an id in pool order, ngram_indexes[id] its output.
    ArrayRef<int64_t> pool = *op.getPoolInt64s();
    ArrayRef<int64_t> counts = op.getNgramCounts();
    ArrayRef<int64_t> indexes = op.getNgramIndexes();
    int64_t minLength = op.getMinGramLength(),
            maxLength = op.getMaxGramLength();
    SmallVector<NGram> grams;
    int64_t id = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      int64_t n = k + 1;
      int64_t begin = counts[k];
      int64_t end = k + 1 < counts.size() ? counts[k + 1]
                                          : static_cast<int64_t>(pool.size());
      if (begin < 0 || end > static_cast<int64_t>(pool.size()) || begin > end) {
        return rewriter.notifyMatchFailure(op, "ngram_counts outside the pool");
      }
      for (int64_t at = begin; at + n <= end; at += n, ++id) {
        if (n < minLength || n > maxLength) {
          continue;
        }
        if (id >= static_cast<int64_t>(indexes.size())) {
          return rewriter.notifyMatchFailure(
              op, "fewer ngram_indexes than n-grams");
        }
        grams.push_back({SmallVector<int64_t>(pool.slice(at, n)), indexes[id]});
      }
    }
    Location loc = op.getLoc();
    Type element = yType.getElementType();
    int64_t columns = xType.getDimSize(xType.getRank() - 1);
    int64_t skips = op.getMaxSkipCount() + 1;
    StringRef mode = op.getMode();
    std::optional<ArrayRef<float>> weights = op.getWeights();
    Value x = adaptor.getX();
    Value y = buildIndexed(
        rewriter, loc, yType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
          Value column = out.back();
          Value count = arith::ConstantIndexOp::create(b, l, 0);
          for (const NGram &gram : grams) {
            int64_t n = gram.tokens.size();
            // Only the output element of this n-gram scans the row for it.
            Value mine =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, column,
                                      indexConstant(b, l, gram.output));
            auto scan =
                scf::IfOp::create(b, l, TypeRange{b.getIndexType()}, mine,
                                  /*withElseRegion=*/true);
            OpBuilder elseBuilder = OpBuilder::atBlockEnd(scan.elseBlock());
            scf::YieldOp::create(elseBuilder, l, count);
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(scan.thenBlock());
            for (int64_t d = 1; d <= (n == 1 ? 1 : skips); ++d) {
              int64_t starts = columns - (n - 1) * d;
              if (starts <= 0) {
                continue;
              }
              Value found = forLoop(
                  b, l, indexConstant(b, l, 0), indexConstant(b, l, starts),
                  {count},
                  [&](OpBuilder &lb, Location ll, Value s, ValueRange acc) {
                    Value all = arith::ConstantIntOp::create(lb, ll, 1, 1);
                    for (int64_t i = 0; i < n; ++i) {
                      SmallVector<Value> at;
                      if (xType.getRank() == 2) {
                        at.push_back(out.front());
                      }
                      at.push_back(arith::AddIOp::create(
                          lb, ll, s, indexConstant(lb, ll, i * d)));
                      Value token = tensor::ExtractOp::create(lb, ll, x, at);
                      Value want = arith::ConstantIntOp::create(
                          lb, ll, gram.tokens[i],
                          cast<IntegerType>(token.getType()).getWidth());
                      all = arith::AndIOp::create(
                          lb, ll, all,
                          arith::CmpIOp::create(
                              lb, ll, arith::CmpIPredicate::eq, token, want));
                    }
                    Value one = arith::SelectOp::create(
                        lb, ll, all, indexConstant(lb, ll, 1),
                        indexConstant(lb, ll, 0));
                    return SmallVector<Value>{
                        arith::AddIOp::create(lb, ll, acc[0], one)};
                  })[0];
              count = found;
            }
            scf::YieldOp::create(b, l, count);
            count = scan.getResult(0);
          }
          Value f = arith::SIToFPOp::create(
              b, l, element,
              arith::IndexCastOp::create(b, l, b.getI64Type(), count));
          // The weight of this output position (1 without weights).
          Value w = scalarConstant(b, l, element, 1);
          if (weights && !weights->empty()) {
            for (auto [i, value] : llvm::enumerate(*weights)) {
              Value here =
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, column,
                                        indexConstant(b, l, i));
              w = arith::SelectOp::create(
                  b, l, here, scalarConstant(b, l, element, value), w);
            }
          }
          if (mode == "TF") {
            return f;
          }
          if (mode == "IDF") {
            Value positive =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, f,
                                      scalarConstant(b, l, element, 0));
            return arith::SelectOp::create(b, l, positive, w,
                                           scalarConstant(b, l, element, 0))
                .getResult();
          }
          return arith::MulFOp::create(b, l, f, w).getResult();
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void populateNGramLoweringPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<TfIdfVectorizerLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
