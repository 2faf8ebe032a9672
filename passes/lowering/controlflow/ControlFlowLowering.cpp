//===- ControlFlowLowering.cpp - If, Scan and Loop -> scf
//------------------===//
//
// `graph.if` becomes `scf.if` on the condition's one element; its branch
// regions move over as they are (their ops are lowered by the same
// conversion) and `graph.yield` becomes `scf.yield`. Where the branches
// yield different shapes the If's result is dynamic in those dims (the
// generic variant sizes what follows at run time), and each branch casts
// its value to it.
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

struct IfLowering final : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A result the branches give different shapes is dynamic in those dims
    // (shape propagation made it so): each branch casts its value to it.
    SmallVector<Type> types;
    for (Type t : op.getResultTypes()) {
      auto lowered = loweredAnyShapeType(t);
      if (!lowered) {
        return rewriter.notifyMatchFailure(op,
                                           "If results must be ranked tensors");
      }
      types.push_back(lowered);
    }
    Location loc = op.getLoc();
    auto condType = cast<RankedTensorType>(adaptor.getCond().getType());
    SmallVector<Value> zeros(condType.getRank(),
                             arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value cond =
        tensor::ExtractOp::create(rewriter, loc, adaptor.getCond(), zeros);
    if (!cond.getType().isInteger(1)) {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getIntegerAttr(cond.getType(), 0));
      cond = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                   cond, zero);
    }
    auto ifOp =
        scf::IfOp::create(rewriter, loc, types, cond,
                          /*addThenBlock=*/false, /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// The terminator of a branch that now belongs to an scf.if.
struct IfYieldLowering final : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ifOp = dyn_cast<scf::IfOp>(op->getParentOp());
    if (!ifOp) {
      return rewriter.notifyMatchFailure(op, "not in an scf.if");
    }
    SmallVector<Value> values;
    for (auto [value, type] :
         llvm::zip(adaptor.getValues(), ifOp.getResultTypes())) {
      values.push_back(
          value.getType() == type
              ? value
              : tensor::CastOp::create(rewriter, op.getLoc(), type, value)
                    .getResult());
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};

/// The attribute's values, or `count` zeros.
SmallVector<int64_t> orZeros(std::optional<ArrayRef<int64_t>> values,
                             size_t count) {
  return values ? SmallVector<int64_t>(*values)
                : SmallVector<int64_t>(count, 0);
}

/// Moves `body` (a graph region) to the end of `dest`, its arguments replaced
/// by `args`; returns its graph.yield.
YieldOp inlineBody(ConversionPatternRewriter &rewriter, Region &body,
                   Block *dest, ValueRange args) {
  rewriter.inlineBlockBefore(&body.front(), dest, dest->end(), args);
  return cast<YieldOp>(dest->back());
}

/// Offsets and sizes of the slice of `type` at `position` along `axis`
/// (size 1 there, whole elsewhere), for extract_slice/insert_slice.
void sliceAt(OpBuilder &b, RankedTensorType type, int64_t axis, Value position,
             SmallVector<OpFoldResult> &offsets,
             SmallVector<OpFoldResult> &sizes) {
  for (int64_t d = 0; d < type.getRank(); ++d) {
    offsets.push_back(d == axis ? OpFoldResult(position) : b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(d == axis ? 1 : type.getDimSize(d)));
  }
}

/// `slice` inserted into `dest` (of `type`) at `position` along `axis`.
Value insertSliceAt(OpBuilder &b, Location loc, Value slice, Value dest,
                    RankedTensorType type, int64_t axis, Value position) {
  SmallVector<OpFoldResult> offsets, sizes;
  sliceAt(b, type, axis, position, offsets, sizes);
  return tensor::InsertSliceOp::create(
      b, loc, slice, dest, offsets, sizes,
      SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1)));
}

/// Appends to `inits` an empty tensor per result `first`.. of `op` (scan
/// outputs the loop fills), and returns their lowered types.
SmallVector<RankedTensorType> scanOutputInits(OpBuilder &b, Operation *op,
                                              size_t first,
                                              SmallVectorImpl<Value> &inits) {
  SmallVector<RankedTensorType> types;
  for (Value result : op->getResults().drop_front(first)) {
    types.push_back(loweredTensorType(result.getType()));
    inits.push_back(emptyTensor(b, op->getLoc(), types.back()));
  }
  return types;
}

/// Scan -> scf.for over the scan length. The states are loop-carried; scan
/// input k contributes its slice at the step (or at length-1-step when
/// reversed) along its axis; scan output k is a loop-carried tensor the
/// body's slice is inserted into the same way.
struct ScanLowering final : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticTensors(op, rewriter))) {
      return failure();
    }
    Location loc = op.getLoc();
    size_t numScanIn = op.getNumScanInputs();
    ValueRange operands = adaptor.getInitialStateAndScanInputs();
    size_t numStates = operands.size() - numScanIn;
    size_t numScanOut = op.getNumResults() - numStates;
    SmallVector<int64_t> inAxes = orZeros(op.getScanInputAxes(), numScanIn);
    SmallVector<int64_t> inDirs =
        orZeros(op.getScanInputDirections(), numScanIn);
    SmallVector<int64_t> outAxes = orZeros(op.getScanOutputAxes(), numScanOut);
    SmallVector<int64_t> outDirs =
        orZeros(op.getScanOutputDirections(), numScanOut);
    if (inAxes.size() != numScanIn || inDirs.size() != numScanIn ||
        outAxes.size() != numScanOut || outDirs.size() != numScanOut) {
      return rewriter.notifyMatchFailure(
          op, "axis/direction lists of the wrong length");
    }
    // Every value crossing the region boundary must keep its type when
    // lowered (signless element types), since the body moves as it is.
    for (Type t : op.getBody().getArgumentTypes()) {
      if (loweredTensorType(t) != t) {
        return rewriter.notifyMatchFailure(
            op, "body argument of a non-signless type");
      }
    }
    auto yield = cast<YieldOp>(op.getBody().front().getTerminator());
    for (Type t : yield.getValues().getTypes()) {
      if (loweredTensorType(t) != t) {
        return rewriter.notifyMatchFailure(
            op, "body result of a dynamic or non-signless type");
      }
    }
    int64_t length = -1;
    for (size_t k = 0; k < numScanIn; ++k) {
      auto type = cast<RankedTensorType>(operands[numStates + k].getType());
      inAxes[k] = inAxes[k] < 0 ? inAxes[k] + type.getRank() : inAxes[k];
      int64_t n = type.getDimSize(inAxes[k]);
      if (length >= 0 && n != length) {
        return rewriter.notifyMatchFailure(op,
                                           "scan inputs of different lengths");
      }
      length = n;
    }
    SmallVector<Value> inits(operands.take_front(numStates));
    SmallVector<RankedTensorType> outTypes =
        scanOutputInits(rewriter, op, numStates, inits);
    for (size_t k = 0; k < numScanOut; ++k) {
      outAxes[k] =
          outAxes[k] < 0 ? outAxes[k] + outTypes[k].getRank() : outAxes[k];
    }
    auto loop =
        scf::ForOp::create(rewriter, loc, indexConstant(rewriter, loc, 0),
                           indexConstant(rewriter, loc, length),
                           indexConstant(rewriter, loc, 1), inits);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value reversed = arith::SubIOp::create(
        rewriter, loc, indexConstant(rewriter, loc, length - 1), step);
    SmallVector<Value> args(loop.getRegionIterArgs().take_front(numStates));
    for (size_t k = 0; k < numScanIn; ++k) {
      Value input = operands[numStates + k];
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets, sizes;
      sliceAt(rewriter, type, inAxes[k], inDirs[k] ? reversed : step, offsets,
              sizes);
      auto sliceType = cast<RankedTensorType>(
          op.getBody().getArgument(numStates + k).getType());
      args.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, input, offsets, sizes,
          SmallVector<OpFoldResult>(type.getRank(), rewriter.getIndexAttr(1))));
    }
    YieldOp bodyYield =
        inlineBody(rewriter, op.getBody(), loop.getBody(), args);
    rewriter.setInsertionPoint(bodyYield);
    SmallVector<Value> next(bodyYield.getValues().take_front(numStates));
    for (size_t k = 0; k < numScanOut; ++k) {
      next.push_back(
          insertSliceAt(rewriter, loc, bodyYield.getValues()[numStates + k],
                        loop.getRegionIterArgs()[numStates + k], outTypes[k],
                        outAxes[k], outDirs[k] ? reversed : step));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.eraseOp(bodyYield);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// The single element of a rank-0 or one-element tensor.
Value onlyElement(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> zeros(type.getRank(), indexConstant(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, tensor, zeros);
}

/// `value` as a tensor of `type` (rank 0 or one element).
Value asTensor(OpBuilder &b, Location loc, Type type, Value value) {
  return tensor::FromElementsOp::create(b, loc, cast<RankedTensorType>(type),
                                        value);
}

/// Loop -> scf. Without scan outputs: an scf.while carrying the iteration
/// number, the condition and the loop-carried values, stopping when the
/// trip count is reached or the body yields false. With scan outputs, whose
/// length is part of their static type, the iteration count must be known:
/// a constant trip count equal to that length, no initial condition (or a
/// constant true one), and a body that passes its condition through (or
/// yields true); then an scf.for inserts each step's slices.
struct LoopLowering final : OpConversionPattern<LoopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    size_t numCarried = adaptor.getVInitial().size();
    size_t numScan = op.getNumResults() - numCarried;
    for (Type t : llvm::concat<Type>(body.getArgumentTypes(),
                                     yield.getValues().getTypes(),
                                     op.getResultTypes())) {
      if (loweredTensorType(t) != t) {
        return rewriter.notifyMatchFailure(
            op,
            "loop values must be tensors of static shape and signless type");
      }
    }
    bool hasTrip = !isNone(op.getM()), hasCond = !isNone(op.getCond());
    Type i64 = rewriter.getI64Type();
    if (numScan == 0) {
      return lowerWhile(op, adaptor, rewriter, hasTrip, hasCond, 0);
    }
    // Scan outputs: the count must be a constant that the body cannot cut
    // short.
    auto trip = hasTrip ? constantInts(op.getM()) : std::nullopt;
    Value bodyCond = yield.getValues()[0];
    bool passesCond = bodyCond == body.getArgument(1);
    if (auto constant = constantInts(bodyCond)) {
      passesCond = constant->size() == 1 && (*constant)[0] != 0;
    }
    auto firstScan =
        dyn_cast<RankedTensorType>(op.getResult(numCarried).getType());
    if (!firstScan || firstScan.getRank() < 1) {
      return rewriter.notifyMatchFailure(op, "a scan output of unknown rank");
    }
    int64_t length = firstScan.getDimSize(0);
    auto cond = hasCond ? constantInts(op.getCond()) : std::nullopt;
    bool startsTrue =
        !hasCond || (cond && cond->size() == 1 && (*cond)[0] != 0);
    if (!trip || trip->size() != 1 || (*trip)[0] != length || !startsTrue ||
        !passesCond) {
      // The count is known only at run time: stop at the declared length
      // and check at run time that the loop would have stopped there.
      if (checksEnabled(op)) {
        return lowerWhile(op, adaptor, rewriter, hasTrip, hasCond, numScan);
      }
      return rewriter.notifyMatchFailure(
          op,
          "scan outputs need a constant trip count equal to their length, a "
          "true or no condition input and a body that cannot stop early");
    }
    SmallVector<Value> inits(adaptor.getVInitial());
    SmallVector<RankedTensorType> scanTypes =
        scanOutputInits(rewriter, op, numCarried, inits);
    auto loop =
        scf::ForOp::create(rewriter, loc, indexConstant(rewriter, loc, 0),
                           indexConstant(rewriter, loc, length),
                           indexConstant(rewriter, loc, 1), inits);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    SmallVector<Value> args = {
        asTensor(rewriter, loc, body.getArgument(0).getType(),
                 arith::IndexCastOp::create(rewriter, loc, i64, step)),
        asTensor(rewriter, loc, body.getArgument(1).getType(),
                 arith::ConstantIntOp::create(rewriter, loc, 1, 1))};
    args.append(loop.getRegionIterArgs().take_front(numCarried).begin(),
                loop.getRegionIterArgs().take_front(numCarried).end());
    YieldOp bodyYield =
        inlineBody(rewriter, op.getBody(), loop.getBody(), args);
    rewriter.setInsertionPoint(bodyYield);
    ValueRange yielded = bodyYield.getValues();
    SmallVector<Value> next(yielded.slice(1, numCarried));
    for (size_t k = 0; k < numScan; ++k) {
      next.push_back(insertSliceAt(rewriter, loc, yielded[1 + numCarried + k],
                                   loop.getRegionIterArgs()[numCarried + k],
                                   scanTypes[k], 0, step));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.eraseOp(bodyYield);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }

  /// The scf.while form; `numScan` scan outputs are filled at the step
  /// index, the loop stops at their declared length at the latest, and a
  /// run-time check requires that it would have stopped there anyway.
  LogicalResult lowerWhile(LoopOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter, bool hasTrip,
                           bool hasCond, size_t numScan) const {
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    Type i1 = rewriter.getI1Type();
    Value trip = hasTrip ? onlyElement(rewriter, loc, adaptor.getM()) : Value();
    Value cond0 =
        hasCond ? onlyElement(rewriter, loc, adaptor.getCond())
                : arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult();
    if (cond0.getType() != i1) {
      cond0 = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, cond0,
          arith::ConstantOp::create(
              rewriter, loc, rewriter.getIntegerAttr(cond0.getType(), 0)));
    }
    SmallVector<Value> inits = {
        arith::ConstantIntOp::create(rewriter, loc, 0, 64), cond0};
    inits.append(adaptor.getVInitial().begin(), adaptor.getVInitial().end());
    size_t numCarried = adaptor.getVInitial().size();
    SmallVector<RankedTensorType> scanTypes =
        scanOutputInits(rewriter, op, numCarried, inits);
    int64_t length = scanTypes.empty() ? 0 : scanTypes.front().getDimSize(0);
    SmallVector<Type> types = llvm::to_vector(ValueRange(inits).getTypes());
    SmallVector<Location> locs(types.size(), loc);
    auto loop = scf::WhileOp::create(rewriter, loc, types, inits);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, types, locs);
    Value go = before->getArgument(1);
    if (trip) {
      go = arith::AndIOp::create(
          rewriter, loc, go,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                before->getArgument(0), trip));
    }
    if (numScan > 0) {
      go = arith::AndIOp::create(
          rewriter, loc, go,
          arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::slt, before->getArgument(0),
              arith::ConstantIntOp::create(rewriter, loc, length, 64)));
    }
    scf::ConditionOp::create(rewriter, loc, go, before->getArguments());
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, types, locs);
    SmallVector<Value> args = {
        asTensor(rewriter, loc, body.getArgument(0).getType(),
                 after->getArgument(0)),
        asTensor(rewriter, loc, body.getArgument(1).getType(),
                 after->getArgument(1))};
    args.append(after->getArguments().begin() + 2,
                after->getArguments().begin() + 2 + numCarried);
    rewriter.inlineBlockBefore(&body, after, after->end(), args);
    auto bodyYield = cast<YieldOp>(after->back());
    rewriter.setInsertionPoint(bodyYield);
    Value nextCond = onlyElement(rewriter, loc, bodyYield.getValues()[0]);
    if (nextCond.getType() != i1) {
      nextCond = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, nextCond,
          arith::ConstantOp::create(
              rewriter, loc, rewriter.getIntegerAttr(nextCond.getType(), 0)));
    }
    SmallVector<Value> next = {
        arith::AddIOp::create(
            rewriter, loc, after->getArgument(0),
            arith::ConstantIntOp::create(rewriter, loc, 1, 64)),
        nextCond};
    ValueRange yielded = bodyYield.getValues();
    for (Value v : yielded.slice(1, numCarried)) {
      next.push_back(v);
    }
    Value step = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), after->getArgument(0));
    for (size_t k = 0; k < numScan; ++k) {
      next.push_back(insertSliceAt(rewriter, loc, yielded[1 + numCarried + k],
                                   after->getArgument(2 + numCarried + k),
                                   scanTypes[k], 0, step));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.eraseOp(bodyYield);
    rewriter.setInsertionPointAfter(loop);
    if (numScan > 0) {
      // Exactly `length` steps ran, and the loop would have stopped there.
      Value steps = loop.getResult(0);
      Value full = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, steps,
          arith::ConstantIntOp::create(rewriter, loc, length, 64));
      Value more = loop.getResult(1);
      if (trip) {
        more = arith::AndIOp::create(
            rewriter, loc, more,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                  steps, trip));
      }
      Value stops = arith::XOrIOp::create(
          rewriter, loc, more,
          arith::ConstantIntOp::create(rewriter, loc, 1, 1));
      assertAtRunTime(rewriter, op,
                      arith::AndIOp::create(rewriter, loc, full, stops),
                      "the loop runs a number of iterations other than the "
                      "length the model "
                      "declares for its scan outputs (" +
                          std::to_string(length) + ")");
    }
    rewriter.replaceOp(op, loop.getResults().drop_front(2));
    return success();
  }
};

} // namespace

void populateControlFlowLoweringPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<IfLowering, IfYieldLowering, ScanLowering, LoopLowering>(
      converter, patterns.getContext());
}

} // namespace infer::lowering
