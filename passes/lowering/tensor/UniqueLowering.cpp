//===- UniqueLowering.cpp - Unique ----------------------------------------===//
//
// Unique's outputs are as long as the number K of distinct elements (or
// slices along `axis`) in the data, known only at run time. The lowering
// views the data as N rows (elements, or slices along the axis) of M values
// and computes, with one loop nest per step:
//   first[i]  the first row equal to row i (i itself when row i is new);
//   rank[i]   where a new row goes in Y: among the new rows, how many are
//             smaller (sorted) or come before it (not sorted);
//   K         the number of new rows, and source[r] the row that goes to
//             position r of Y.
// Y takes its rows from `source`, indices is `source`, inverse_indices is
// rank[first[j]] and counts[r] counts the rows whose first is source[r].
// A result the model declares with a static length is checked against K
// at run time; a dynamic one (the generic variant) is sized by K. The
// comparisons make it quadratic in N: meant for the small tensors Unique
// sees in models (token ids, labels).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

struct UniqueLowering final : OpConversionPattern<UniqueOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!xType || !xType.hasStaticShape() ||
        !loweredTensorType(op.getX().getType())) {
      return rewriter.notifyMatchFailure(op, "needs statically shaped data");
    }
    if (!checksEnabled(op)) {
      return rewriter.notifyMatchFailure(
          op, "needs run-time checks (a data-dependent length)");
    }
    int64_t rank = xType.getRank();
    std::optional<int64_t> axis;
    if (op.getAxis()) {
      axis = normalizeAxis(*op.getAxis(), rank);
      if (!axis) {
        return rewriter.notifyMatchFailure(op, "axis out of range");
      }
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    ArrayRef<int64_t> shape = xType.getShape();
    int64_t rows = axis ? shape[*axis] : xType.getNumElements();
    if (rows == 0) {
      return rewriter.notifyMatchFailure(op, "empty data");
    }
    // The results of length K are all declared static or all dynamic.
    SmallVector<bool> staticK;
    auto yDeclared = loweredAnyShapeType(op.getY().getType());
    staticK.push_back(!yDeclared.isDynamicDim(axis ? *axis : 0));
    for (Value r : {op.getIndices(), op.getCounts()}) {
      if (!isNone(r)) {
        staticK.push_back(!loweredAnyShapeType(r.getType()).isDynamicDim(0));
      }
    }
    if (llvm::is_contained(staticK, true) &&
        llvm::is_contained(staticK, false)) {
      return rewriter.notifyMatchFailure(
          op, "results of K elements both static and dynamic");
    }
    int64_t columns =
        axis ? xType.getNumElements() / std::max<int64_t>(rows, 1) : 1;
    bool isFloat = isa<FloatType>(xType.getElementType());
    bool isUnsigned = isUnsignedTensor(op.getX().getType());
    Type i64 = rewriter.getI64Type();
    auto idx = [](OpBuilder &b, Location l, int64_t v) {
      return indexConstant(b, l, v);
    };

    // Element c of row i.
    auto element = [&](OpBuilder &b, Location l, Value i, Value c) {
      SmallVector<Value> at(rank);
      Value rest = axis ? c : i;
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (axis && d == *axis) {
          at[d] = i;
          continue;
        }
        at[d] = arith::RemUIOp::create(b, l, rest, idx(b, l, shape[d]));
        rest = arith::DivUIOp::create(b, l, rest, idx(b, l, shape[d]));
      }
      return tensor::ExtractOp::create(b, l, x, at).getResult();
    };
    // (row i == row j, row i < row j), comparing values in order.
    auto compare = [&](OpBuilder &b, Location l, Value i, Value j) {
      Value no = arith::ConstantIntOp::create(b, l, 0, 1);
      ValueRange r = forLoop(
          b, l, idx(b, l, 0), idx(b, l, columns), {no, no},
          [&](OpBuilder &lb, Location ll, Value c, ValueRange acc) {
            Value u = element(lb, ll, i, c), v = element(lb, ll, j, c);
            Value differ =
                isFloat ? arith::CmpFOp::create(lb, ll,
                                                arith::CmpFPredicate::UNE, u, v)
                              .getResult()
                        : arith::CmpIOp::create(lb, ll,
                                                arith::CmpIPredicate::ne, u, v)
                              .getResult();
            Value less =
                isFloat ? arith::CmpFOp::create(lb, ll,
                                                arith::CmpFPredicate::OLT, u, v)
                              .getResult()
                        : arith::CmpIOp::create(lb, ll,
                                                isUnsigned
                                                    ? arith::CmpIPredicate::ult
                                                    : arith::CmpIPredicate::slt,
                                                u, v)
                              .getResult();
            // The first differing value decides.
            Value decides = arith::AndIOp::create(
                lb, ll, differ,
                arith::XOrIOp::create(
                    lb, ll, acc[0],
                    arith::ConstantIntOp::create(lb, ll, 1, 1)));
            return SmallVector<Value>{
                arith::OrIOp::create(lb, ll, acc[0], differ),
                arith::SelectOp::create(lb, ll, decides, less, acc[1])};
          });
      Value equal = arith::XOrIOp::create(
          b, l, r[0], arith::ConstantIntOp::create(b, l, 1, 1));
      return std::pair<Value, Value>(equal, r[1]);
    };
    auto asIndex = [](OpBuilder &b, Location l, Value v) {
      return arith::IndexCastOp::create(b, l, b.getIndexType(), v).getResult();
    };
    auto asI64 = [&](OpBuilder &b, Location l, Value v) {
      return arith::IndexCastOp::create(b, l, i64, v).getResult();
    };
    auto rowsType = RankedTensorType::get({rows}, i64);

    // first[i]: the smallest j with row j == row i.
    Value first = buildIndexed(
        rewriter, loc, rowsType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value i = at[0];
          ValueRange r =
              forLoop(b, l, idx(b, l, 0), idx(b, l, rows), {i},
                      [&](OpBuilder &lb, Location ll, Value j, ValueRange acc) {
                        Value equal = compare(lb, ll, j, i).first;
                        Value better = arith::AndIOp::create(
                            lb, ll, equal,
                            arith::CmpIOp::create(
                                lb, ll, arith::CmpIPredicate::ult, j, acc[0]));
                        return SmallVector<Value>{
                            arith::SelectOp::create(lb, ll, better, j, acc[0])};
                      });
          return asI64(b, l, r[0]);
        });
    auto isNew = [&](OpBuilder &b, Location l, Value i) {
      Value f = tensor::ExtractOp::create(b, l, first, ValueRange{i});
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, f,
                                   asI64(b, l, i))
          .getResult();
    };
    auto count = [&](OpBuilder &b, Location l, int64_t upTo,
                     function_ref<Value(OpBuilder &, Location, Value)> pred) {
      ValueRange r =
          forLoop(b, l, idx(b, l, 0), idx(b, l, upTo), {idx(b, l, 0)},
                  [&](OpBuilder &lb, Location ll, Value j, ValueRange acc) {
                    Value one =
                        arith::SelectOp::create(lb, ll, pred(lb, ll, j),
                                                idx(lb, ll, 1), idx(lb, ll, 0));
                    return SmallVector<Value>{
                        arith::AddIOp::create(lb, ll, acc[0], one)};
                  });
      return r[0];
    };
    // rank[i]: new rows smaller than row i (sorted) or before it.
    bool sorted = op.getSorted() != 0;
    Value position = buildIndexed(
        rewriter, loc, rowsType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value i = at[0];
          Value n = count(b, l, rows, [&](OpBuilder &lb, Location ll, Value j) {
            Value before = sorted ? compare(lb, ll, j, i).second
                                  : arith::CmpIOp::create(
                                        lb, ll, arith::CmpIPredicate::ult, j, i)
                                        .getResult();
            return arith::AndIOp::create(lb, ll, isNew(lb, ll, j), before)
                .getResult();
          });
          return asI64(b, l, n);
        });
    Value k =
        count(rewriter, loc, rows, [&](OpBuilder &b, Location l, Value j) {
          return isNew(b, l, j);
        });

    // Each result: its length K checked against a static declaration.
    auto lengthOf = [&](Value result, int64_t dim) -> FailureOr<OpFoldResult> {
      auto type = loweredAnyShapeType(result.getType());
      if (!type.isDynamicDim(dim)) {
        Value same =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, k,
                                  idx(rewriter, loc, type.getDimSize(dim)));
        assertAtRunTime(rewriter, op, same,
                        "the number of unique " +
                            std::string(axis ? "slices" : "elements") +
                            " differs from the length the model declares for "
                            "its outputs (" +
                            std::to_string(type.getDimSize(dim)) + ")");
        return OpFoldResult(rewriter.getIndexAttr(type.getDimSize(dim)));
      }
      return OpFoldResult(k);
    };
    FailureOr<OpFoldResult> kLength = lengthOf(op.getY(), axis ? *axis : 0);
    auto kType = [&](Value result) {
      return loweredAnyShapeType(result.getType());
    };
    // source[r]: the new row placed at r.
    auto sourceType = RankedTensorType::get({ShapedType::kDynamic}, i64);
    Value source = buildIndexed(
        rewriter, loc, sourceType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value r = asI64(b, l, at[0]);
          ValueRange found =
              forLoop(b, l, idx(b, l, 0), idx(b, l, rows),
                      {arith::ConstantIntOp::create(b, l, 0, 64)},
                      [&](OpBuilder &lb, Location ll, Value i, ValueRange acc) {
                        Value p = tensor::ExtractOp::create(lb, ll, position,
                                                            ValueRange{i});
                        Value here = arith::AndIOp::create(
                            lb, ll, isNew(lb, ll, i),
                            arith::CmpIOp::create(
                                lb, ll, arith::CmpIPredicate::eq, p, r));
                        return SmallVector<Value>{arith::SelectOp::create(
                            lb, ll, here, asI64(lb, ll, i), acc[0])};
                      });
          return found[0];
        },
        {OpFoldResult(
            arith::MaxUIOp::create(rewriter, loc, k, idx(rewriter, loc, 1))
                .getResult())});
    // source[min(r, K - 1)]: a declared length other than K fails its
    // check, and the reads stay in bounds.
    auto sourceAt = [&](OpBuilder &b, Location l, Value r) {
      Value last = arith::SubIOp::create(
          b, l, tensor::DimOp::create(b, l, source, 0), idx(b, l, 1));
      return tensor::ExtractOp::create(
                 b, l, source,
                 ValueRange{arith::MinUIOp::create(b, l, r, last)})
          .getResult();
    };

    SmallVector<Value> results;
    // Y: the data with the axis (or the flattened data) replaced by K rows.
    auto yType = kType(op.getY());
    SmallVector<OpFoldResult> ySizes;
    for (int64_t d = 0; d < yType.getRank(); ++d) {
      ySizes.push_back(
          (axis ? d == *axis : d == 0)
              ? *kLength
              : OpFoldResult(rewriter.getIndexAttr(yType.getDimSize(d))));
    }
    results.push_back(buildIndexed(
        rewriter, loc, yType,
        [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
          Value r = axis ? at[*axis] : at[0];
          Value row = asIndex(b, l, sourceAt(b, l, r));
          if (!axis) {
            return element(b, l, row, idx(b, l, 0));
          }
          SmallVector<Value> coords(at);
          coords[*axis] = row;
          return tensor::ExtractOp::create(b, l, x, coords).getResult();
        },
        ySizes));
    auto vector =
        [&](Value result, OpFoldResult size,
            function_ref<Value(OpBuilder &, Location, Value)> body) -> Value {
      if (isNone(result)) {
        return noneValue(rewriter, loc);
      }
      return buildIndexed(rewriter, loc, kType(result),
                          [&](OpBuilder &b, Location l, ArrayRef<Value> at) {
                            return body(b, l, at[0]);
                          },
                          {size});
    };
    results.push_back(vector(
        op.getIndices(), *kLength,
        [&](OpBuilder &b, Location l, Value r) { return sourceAt(b, l, r); }));
    results.push_back(vector(
        op.getInverseIndices(), rewriter.getIndexAttr(rows),
        [&](OpBuilder &b, Location l, Value j) {
          Value f = asIndex(
              b, l, tensor::ExtractOp::create(b, l, first, ValueRange{j}));
          return tensor::ExtractOp::create(b, l, position, ValueRange{f})
              .getResult();
        }));
    results.push_back(vector(
        op.getCounts(), *kLength, [&](OpBuilder &b, Location l, Value r) {
          Value s = sourceAt(b, l, r);
          Value n = count(b, l, rows, [&](OpBuilder &lb, Location ll, Value j) {
            Value f = tensor::ExtractOp::create(lb, ll, first, ValueRange{j});
            return arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::eq, f, s)
                .getResult();
          });
          return asI64(b, l, n);
        }));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateUniqueLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<UniqueLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
