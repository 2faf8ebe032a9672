//===- DataDependentLowering.cpp - NonZero, Compress -> scf loops ---------===//
//
// Ops whose output length depends on the input's values. The compiled code
// has static shapes, so the length is the one the model declares for the
// output; a run-time check (see assertAtRunTime) makes a run whose data
// gives another length an error instead of a silently truncated or padded
// answer. Without checks (HLS, CUDA) these ops are not lowered.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

Value idx(OpBuilder &b, Location l, int64_t v) { return indexConstant(b, l, v); }

/// Whether element `v` is non-zero (true for NaN).
Value nonZero(OpBuilder &b, Location l, Value v) {
  if (isa<FloatType>(v.getType())) {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                 scalarConstant(b, l, v.getType(), 0));
  }
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                               scalarConstant(b, l, v.getType(), 0));
}

/// Walks `count` positions in order, keeping those `keep` selects: the
/// first `limit` of them are recorded by `record(b, l, tensor, slot,
/// position)` (which returns the updated tensor). Returns the tensor and the
/// number kept (which may exceed `limit`).
std::pair<Value, Value> selectPositions(
    OpBuilder &b, Location loc, int64_t count, int64_t limit, Value init,
    function_ref<Value(OpBuilder &, Location, Value)> keep,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value)> record) {
  auto loop = scf::ForOp::create(
      b, loc, idx(b, loc, 0), idx(b, loc, count), idx(b, loc, 1),
      ValueRange{init, idx(b, loc, 0)},
      [&](OpBuilder &nb, Location l, Value i, ValueRange state) {
        Value take = keep(nb, l, i);
        Value room = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, state[1],
                                           idx(nb, l, limit));
        auto store = scf::IfOp::create(
            nb, l, arith::AndIOp::create(nb, l, take, room),
            [&](OpBuilder &tb, Location tl) {
              scf::YieldOp::create(tb, tl, record(tb, tl, state[0], state[1], i));
            },
            [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, state[0]); });
        Value next = arith::SelectOp::create(nb, l, take,
                                             arith::AddIOp::create(nb, l, state[1], idx(nb, l, 1)),
                                             state[1]);
        scf::YieldOp::create(nb, l, ValueRange{store.getResult(0), next});
      });
  return {loop.getResult(0), loop.getResult(1)};
}

void assertCount(OpBuilder &b, Operation *op, Value kept, int64_t declared, StringRef what) {
  Location loc = op->getLoc();
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kept,
                                     idx(b, loc, declared));
  assertAtRunTime(b, op, same,
                  (what + " differs from the length the model declares for the output (" +
                   std::to_string(declared) + ")")
                      .str());
}

/// NonZero: the coordinates of the non-zero elements, row-major order.
struct NonZeroLowering final : OpConversionPattern<NonZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    if (!checksEnabled(op)) {
      return rewriter.notifyMatchFailure(op, "needs run-time checks (a data-dependent length)");
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    auto type = loweredTensorType(op.getY().getType());
    int64_t rank = xType.getRank(), limit = type.getDimSize(1);
    Value zeros = filledTensor(rewriter, loc, type,
                               scalarConstant(rewriter, loc, type.getElementType(), 0));
    ArrayRef<int64_t> shape = xType.getShape();
    auto coords = [&](OpBuilder &b, Location l, Value flat) {
      SmallVector<Value> at(rank);
      for (int64_t d = rank - 1; d >= 0; --d) {
        at[d] = arith::RemUIOp::create(b, l, flat, idx(b, l, shape[d]));
        flat = arith::DivUIOp::create(b, l, flat, idx(b, l, shape[d]));
      }
      return at;
    };
    auto [result, kept] = selectPositions(
        rewriter, loc, xType.getNumElements(), limit, zeros,
        [&](OpBuilder &b, Location l, Value i) {
          return nonZero(b, l, tensor::ExtractOp::create(b, l, x, coords(b, l, i)));
        },
        [&](OpBuilder &b, Location l, Value t, Value slot, Value i) {
          for (auto [d, c] : llvm::enumerate(coords(b, l, i))) {
            Value v = arith::IndexCastOp::create(b, l, type.getElementType(), c);
            t = tensor::InsertOp::create(b, l, v, t, ValueRange{idx(b, l, d), slot});
          }
          return t;
        });
    assertCount(rewriter, op, kept, limit, "the number of non-zero elements");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Compress: the slices along `axis` (of the flattened input without one)
/// whose condition element is true.
struct CompressLowering final : OpConversionPattern<CompressOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    if (!checksEnabled(op)) {
      return rewriter.notifyMatchFailure(op, "needs run-time checks (a data-dependent length)");
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), cond = adaptor.getCondition();
    auto type = loweredTensorType(op.getOutput().getType());
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t axis = 0;
    if (auto attr = op.getAxis()) {
      axis = *attr < 0 ? *attr + inType.getRank() : *attr;
    } else {
      input = reshapeTo(rewriter, loc, input,
                        RankedTensorType::get({inType.getNumElements()}, inType.getElementType()));
      inType = cast<RankedTensorType>(input.getType());
    }
    int64_t length = std::min(inType.getDimSize(axis),
                              cast<RankedTensorType>(cond.getType()).getDimSize(0));
    int64_t limit = type.getDimSize(axis);
    // The source position along the axis of each output slice.
    auto positionsType = RankedTensorType::get({limit}, rewriter.getIndexType());
    Value positions = filledTensor(rewriter, loc, positionsType, idx(rewriter, loc, 0));
    auto [chosen, kept] = selectPositions(
        rewriter, loc, length, limit, positions,
        [&](OpBuilder &b, Location l, Value i) {
          return nonZero(b, l, tensor::ExtractOp::create(b, l, cond, ValueRange{i}));
        },
        [&](OpBuilder &b, Location l, Value t, Value slot, Value i) {
          return tensor::InsertOp::create(b, l, i, t, ValueRange{slot}).getResult();
        });
    assertCount(rewriter, op, kept, limit, "the number of true condition elements");
    Value result = buildIndexed(rewriter, loc, type,
                                [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
                                  SmallVector<Value> at(out);
                                  at[axis] = tensor::ExtractOp::create(b, l, chosen,
                                                                       ValueRange{out[axis]});
                                  return tensor::ExtractOp::create(b, l, input, at);
                                });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateDataDependentLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<NonZeroLowering, CompressLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
