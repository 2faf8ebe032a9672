//===- DataDependentLowering.cpp - NonZero, Compress, NMS -> scf loops ----===//
//
// Ops whose output length depends on the input's values. The compiled code
// has static shapes, so the length is the one the model declares for the
// output; a run-time check (see assertAtRunTime) makes a run whose data
// gives another length an error instead of a silently truncated or padded
// answer. Without checks (HLS, CUDA) these ops are not lowered.
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

Value idx(OpBuilder &b, Location l, int64_t v) {
  return indexConstant(b, l, v);
}

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
        Value room = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult,
                                           state[1], idx(nb, l, limit));
        auto store = scf::IfOp::create(
            nb, l, arith::AndIOp::create(nb, l, take, room),
            [&](OpBuilder &tb, Location tl) {
              scf::YieldOp::create(tb, tl,
                                   record(tb, tl, state[0], state[1], i));
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, state[0]);
            });
        Value next = arith::SelectOp::create(
            nb, l, take, arith::AddIOp::create(nb, l, state[1], idx(nb, l, 1)),
            state[1]);
        scf::YieldOp::create(nb, l, ValueRange{store.getResult(0), next});
      });
  return {loop.getResult(0), loop.getResult(1)};
}

void assertCount(OpBuilder &b, Operation *op, Value kept, int64_t declared,
                 StringRef what) {
  Location loc = op->getLoc();
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kept,
                                     idx(b, loc, declared));
  assertAtRunTime(
      b, op, same,
      (what + " differs from the length the model declares for the output (" +
       std::to_string(declared) + ")")
          .str());
}

/// NonZero: the coordinates of the non-zero elements, row-major order.
struct NonZeroLowering final : CheckedPattern<NonZeroOp> {
  using CheckedPattern::CheckedPattern;
  LogicalResult lower(NonZeroOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    auto type = loweredTensorType(op.getY().getType());
    int64_t rank = xType.getRank(), limit = type.getDimSize(1);
    Value zeros =
        filledTensor(rewriter, loc, type,
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
          return nonZero(b, l,
                         tensor::ExtractOp::create(b, l, x, coords(b, l, i)));
        },
        [&](OpBuilder &b, Location l, Value t, Value slot, Value i) {
          for (auto [d, c] : llvm::enumerate(coords(b, l, i))) {
            Value v =
                arith::IndexCastOp::create(b, l, type.getElementType(), c);
            t = tensor::InsertOp::create(b, l, v, t,
                                         ValueRange{idx(b, l, d), slot});
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
struct CompressLowering final : CheckedPattern<CompressOp> {
  using CheckedPattern::CheckedPattern;
  LogicalResult lower(CompressOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), cond = adaptor.getCondition();
    auto type = loweredTensorType(op.getOutput().getType());
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t axis = 0;
    if (auto attr = op.getAxis()) {
      axis = *attr < 0 ? *attr + inType.getRank() : *attr;
    } else {
      input = reshapeTo(rewriter, loc, input,
                        RankedTensorType::get({inType.getNumElements()},
                                              inType.getElementType()));
      inType = cast<RankedTensorType>(input.getType());
    }
    int64_t length =
        std::min(inType.getDimSize(axis),
                 cast<RankedTensorType>(cond.getType()).getDimSize(0));
    int64_t limit = type.getDimSize(axis);
    // The source position along the axis of each output slice.
    auto positionsType =
        RankedTensorType::get({limit}, rewriter.getIndexType());
    Value positions =
        filledTensor(rewriter, loc, positionsType, idx(rewriter, loc, 0));
    auto [chosen, kept] = selectPositions(
        rewriter, loc, length, limit, positions,
        [&](OpBuilder &b, Location l, Value i) {
          return nonZero(b, l,
                         tensor::ExtractOp::create(b, l, cond, ValueRange{i}));
        },
        [&](OpBuilder &b, Location l, Value t, Value slot, Value i) {
          return tensor::InsertOp::create(b, l, i, t, ValueRange{slot})
              .getResult();
        });
    assertCount(rewriter, op, kept, limit,
                "the number of true condition elements");
    Value result =
        buildIndexed(rewriter, loc, type,
                     [&](OpBuilder &b, Location l, ArrayRef<Value> out) {
                       SmallVector<Value> at(out);
                       at[axis] = tensor::ExtractOp::create(
                           b, l, chosen, ValueRange{out[axis]});
                       return tensor::ExtractOp::create(b, l, input, at);
                     });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// IoU(box p, box q) > threshold for boxes [y1, x1, y2, x2] (corners in
/// any order) or, with `center`, [x_center, y_center, width, height];
/// degenerate boxes and empty intersections never suppress (as ONNX's
/// reference). `coord(box, k)` reads coordinate k as f32.
Value suppresses(OpBuilder &b, Location l,
                 function_ref<Value(Value, int64_t)> coord, Value p, Value q,
                 bool center, Value threshold) {
  Type f32 = b.getF32Type();
  auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto sub = [&](Value x, Value y) {
    return arith::SubFOp::create(b, l, x, y).getResult();
  };
  auto mul = [&](Value x, Value y) {
    return arith::MulFOp::create(b, l, x, y).getResult();
  };
  auto gt = [&](Value x, Value y) {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, y)
        .getResult();
  };
  // [min, max] of the box along x (axis 0) or y (axis 1).
  auto extent = [&](Value box, int axis) -> std::pair<Value, Value> {
    if (center) {
      Value mid = coord(box, axis), half = mul(coord(box, axis + 2), fc(0.5));
      return {sub(mid, half), arith::AddFOp::create(b, l, mid, half)};
    }
    Value u = coord(box, axis == 0 ? 1 : 0), v = coord(box, axis == 0 ? 3 : 2);
    return {arith::MinimumFOp::create(b, l, u, v),
            arith::MaximumFOp::create(b, l, u, v)};
  };
  auto [px0, px1] = extent(p, 0);
  auto [qx0, qx1] = extent(q, 0);
  auto [py0, py1] = extent(p, 1);
  auto [qy0, qy1] = extent(q, 1);
  Value iw = sub(arith::MinimumFOp::create(b, l, px1, qx1),
                 arith::MaximumFOp::create(b, l, px0, qx0));
  Value ih = sub(arith::MinimumFOp::create(b, l, py1, qy1),
                 arith::MaximumFOp::create(b, l, py0, qy0));
  Value inter = mul(iw, ih);
  Value areaP = mul(sub(px1, px0), sub(py1, py0));
  Value areaQ = mul(sub(qx1, qx0), sub(qy1, qy0));
  Value unionArea = sub(arith::AddFOp::create(b, l, areaP, areaQ), inter);
  Value valid = arith::AndIOp::create(
      b, l, arith::AndIOp::create(b, l, gt(iw, fc(0)), gt(ih, fc(0))),
      arith::AndIOp::create(
          b, l, arith::AndIOp::create(b, l, gt(areaP, fc(0)), gt(areaQ, fc(0))),
          gt(unionArea, fc(0))));
  Value safeUnion = arith::SelectOp::create(b, l, valid, unionArea, fc(1));
  Value over = gt(arith::DivFOp::create(b, l, inter, safeUnion), threshold);
  return arith::AndIOp::create(b, l, valid, over);
}

/// NonMaxSuppression as ONNX's reference: per batch and class, candidates
/// (score above score_threshold when given) in order of decreasing score
/// (ties: lower index first), each kept unless it overlaps a kept box of
/// its class by IoU > iou_threshold, at most max_output_boxes_per_class
/// (0 when absent). The declared number of rows of the output is checked.
struct NonMaxSuppressionLowering final : CheckedPattern<NonMaxSuppressionOp> {
  using CheckedPattern::CheckedPattern;
  LogicalResult lower(NonMaxSuppressionOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    auto scoresType = cast<RankedTensorType>(scores.getType());
    int64_t batches = scoresType.getDimSize(0),
            classes = scoresType.getDimSize(1);
    int64_t n = scoresType.getDimSize(2);
    auto type = loweredTensorType(op.getSelectedIndices().getType());
    int64_t rows = type.getDimSize(0);
    bool center = op.getCenterPointBox() != 0;
    Type f32 = rewriter.getF32Type(), i64 = rewriter.getI64Type();
    auto scalarOf = [&](Value original, Value lowered, Type to,
                        double absent) -> Value {
      if (isNone(original)) {
        return scalarConstant(rewriter, loc, to, absent);
      }
      auto t = cast<RankedTensorType>(lowered.getType());
      SmallVector<Value> zeros(t.getRank(), idx(rewriter, loc, 0));
      Value v = tensor::ExtractOp::create(rewriter, loc, lowered, zeros);
      return castScalar(rewriter, loc, v, to, false, false);
    };
    Value maxOut = scalarOf(op.getMaxOutputBoxesPerClass(),
                            adaptor.getMaxOutputBoxesPerClass(), i64, 0);
    Value iouThreshold =
        scalarOf(op.getIouThreshold(), adaptor.getIouThreshold(), f32, 0);
    bool hasScoreThreshold = !isNone(op.getScoreThreshold());
    Value scoreThreshold =
        scalarOf(op.getScoreThreshold(), adaptor.getScoreThreshold(), f32, 0);
    Value out = filledTensor(rewriter, loc, type,
                             scalarConstant(rewriter, loc, i64, 0));
    // stamp[i] == serial marks box i as seen for the current (batch, class).
    Value stamps = filledTensor(rewriter, loc, RankedTensorType::get({n}, i64),
                                scalarConstant(rewriter, loc, i64, 0));
    Value kept = filledTensor(
        rewriter, loc, RankedTensorType::get({n}, rewriter.getIndexType()),
        idx(rewriter, loc, 0));
    Value c0 = idx(rewriter, loc, 0), none = idx(rewriter, loc, n);
    ValueRange done = forLoop(
        rewriter, loc, c0, idx(rewriter, loc, batches * classes),
        {out, idx(rewriter, loc, 0), stamps, kept},
        [&](OpBuilder &b, Location l, Value bc,
            ValueRange s) -> SmallVector<Value> {
          Value batch = arith::DivUIOp::create(b, l, bc, idx(b, l, classes));
          Value cls = arith::RemUIOp::create(b, l, bc, idx(b, l, classes));
          Value serial = arith::IndexCastOp::create(
              b, l, i64, arith::AddIOp::create(b, l, bc, idx(b, l, 1)));
          auto score = [&](OpBuilder &nb, Location nl, Value i) {
            return castScalar(nb, nl,
                              tensor::ExtractOp::create(
                                  nb, nl, scores, ValueRange{batch, cls, i}),
                              f32, false, false);
          };
          ValueRange steps = forLoop(
              b, l, idx(b, l, 0), idx(b, l, n),
              {s[0], s[1], s[2], s[3], idx(b, l, 0)},
              [&](OpBuilder &b, Location l, Value,
                  ValueRange t) -> SmallVector<Value> {
                // The best unseen candidate (ties: the lower index).
                ValueRange best = forLoop(
                    b, l, idx(b, l, 0), idx(b, l, n),
                    {none, scalarConstant(b, l, f32, 0)},
                    [&](OpBuilder &b, Location l, Value i,
                        ValueRange cur) -> SmallVector<Value> {
                      Value v = score(b, l, i);
                      Value unseen = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::ne,
                          tensor::ExtractOp::create(b, l, t[2], ValueRange{i}),
                          serial);
                      Value ok = unseen;
                      if (hasScoreThreshold) {
                        ok = arith::AndIOp::create(
                            b, l, ok,
                            arith::CmpFOp::create(b, l,
                                                  arith::CmpFPredicate::OGT, v,
                                                  scoreThreshold));
                      }
                      Value first = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::eq, cur[0], none);
                      Value higher = arith::CmpFOp::create(
                          b, l, arith::CmpFPredicate::OGT, v, cur[1]);
                      Value take = arith::AndIOp::create(
                          b, l, ok, arith::OrIOp::create(b, l, first, higher));
                      return {arith::SelectOp::create(b, l, take, i, cur[0]),
                              arith::SelectOp::create(b, l, take, v, cur[1])};
                    });
                Value found = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::ult, best[0], none);
                Value pick =
                    arith::SelectOp::create(b, l, found, best[0], idx(b, l, 0));
                Value seen = tensor::InsertOp::create(
                    b, l,
                    arith::SelectOp::create(b, l, found, serial,
                                            tensor::ExtractOp::create(
                                                b, l, t[2], ValueRange{pick})),
                    t[2], ValueRange{pick});
                auto coord = [&](Value box, int64_t k) -> Value {
                  return castScalar(
                      b, l,
                      tensor::ExtractOp::create(
                          b, l, boxes, ValueRange{batch, box, idx(b, l, k)}),
                      f32, false, false);
                };
                Value suppressed = forLoop(
                    b, l, idx(b, l, 0), t[4],
                    {arith::ConstantIntOp::create(b, l, 0, 1)},
                    [&](OpBuilder &b, Location l, Value k,
                        ValueRange any) -> SmallVector<Value> {
                      Value other =
                          tensor::ExtractOp::create(b, l, t[3], ValueRange{k});
                      return {arith::OrIOp::create(b, l, any[0],
                                                   suppresses(b, l, coord, pick,
                                                              other, center,
                                                              iouThreshold))};
                    })[0];
                Value room = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::slt,
                    arith::IndexCastOp::create(b, l, i64, t[4]), maxOut);
                Value keep = arith::AndIOp::create(
                    b, l, arith::AndIOp::create(b, l, found, room),
                    arith::XOrIOp::create(
                        b, l, suppressed,
                        arith::ConstantIntOp::create(b, l, 1, 1)));
                auto stored = scf::IfOp::create(
                    b, l, keep,
                    [&](OpBuilder &tb, Location tl) {
                      Value list = tensor::InsertOp::create(tb, tl, pick, t[3],
                                                            ValueRange{t[4]});
                      // Rows past the declared count are dropped (and checked
                      // below).
                      Value row = arith::MinUIOp::create(
                          tb, tl, t[1],
                          idx(tb, tl, std::max<int64_t>(rows - 1, 0)));
                      Value o = t[0];
                      SmallVector<Value, 3> triple = {batch, cls, pick};
                      if (rows > 0) {
                        for (auto [col, v] : llvm::enumerate(triple)) {
                          o = tensor::InsertOp::create(
                              tb, tl,
                              arith::IndexCastOp::create(tb, tl, i64, v), o,
                              ValueRange{row, idx(tb, tl, col)});
                        }
                      }
                      scf::YieldOp::create(tb, tl, ValueRange{o, list});
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, ValueRange{t[0], t[3]});
                    });
                Value one = idx(b, l, 1);
                Value count = arith::SelectOp::create(
                    b, l, keep, arith::AddIOp::create(b, l, t[1], one), t[1]);
                Value keptCount = arith::SelectOp::create(
                    b, l, keep, arith::AddIOp::create(b, l, t[4], one), t[4]);
                return {stored.getResult(0), count, seen, stored.getResult(1),
                        keptCount};
              });
          return {steps[0], steps[1], steps[2], steps[3]};
        });
    assertCount(rewriter, op, done[1], rows, "the number of selected boxes");
    rewriter.replaceOp(op, done[0]);
    return success();
  }
};

} // namespace

void populateDataDependentLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<NonZeroLowering, CompressLowering, NonMaxSuppressionLowering>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
