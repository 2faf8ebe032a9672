//===- ReductionLoops.cpp - a generic's reduction loop as scf loops -------===//
//
// The scalar loop keeps the generic's order. The vector loop is for
// min/max results only: for those (floating-point minimum/maximum with
// NaN propagation, minnum/maxnum, integer min/max) the value is the same
// in any order, so kVectorAccumulators vectors of partial results, combined
// and reduced across lanes at the end, then the remaining elements in
// order, give what the scalar loop gives.
//
//===----------------------------------------------------------------------===//

#include "targets/common/ReductionLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;

namespace infer::targets {

namespace {

/// How lanes of partial results of `op` combine, when `op` is a min or max.
std::optional<vector::CombiningKind> combiningKind(Operation *op) {
  using Kind = vector::CombiningKind;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(op)
      .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
      .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
      .Case([](arith::MinNumFOp) { return Kind::MINNUMF; })
      .Case([](arith::MaxNumFOp) { return Kind::MAXNUMF; })
      .Case([](arith::MinSIOp) { return Kind::MINSI; })
      .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
      .Case([](arith::MinUIOp) { return Kind::MINUI; })
      .Case([](arith::MaxUIOp) { return Kind::MAXUI; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Scalars a lane can hold: integers (i1 for compares) and floats of up to
/// 64 bits.
bool isLaneType(Type type) {
  return (isa<IntegerType>(type) || isa<FloatType>(type)) &&
         type.getIntOrFloatBitWidth() <= 64;
}

/// Lanes per vector: `vectorBits` of the widest value in `op`'s body.
int64_t lanesFor(linalg::GenericOp op, int64_t vectorBits) {
  unsigned widest = 8;
  auto widen = [&](Type type) {
    widest = std::max(widest, type.getIntOrFloatBitWidth());
  };
  for (BlockArgument arg : op.getBody()->getArguments()) {
    widen(arg.getType());
  }
  for (Operation &inner : op.getBody()->without_terminator()) {
    llvm::for_each(inner.getResultTypes(), widen);
  }
  return std::max<int64_t>(2, vectorBits / widest);
}

/// Whether the reduction loop `dim` reads `input` along its innermost,
/// unit-stride dim (a vector load), and nowhere else.
bool readsAlongInnermost(linalg::GenericOp op, OpOperand *input, unsigned dim) {
  AffineMap map = op.getMatchingIndexingMap(input);
  auto type = dyn_cast<MemRefType>(input->get().getType());
  if (!type || map.getNumResults() == 0 ||
      map.getResults().back() != getAffineDimExpr(dim, op.getContext())) {
    return false;
  }
  if (llvm::any_of(map.getResults().drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(dim); })) {
    return false;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Clones `body`'s ops (but the terminator) with each scalar made a vector
/// of `lanes`: values from outside the body are broadcast.
void cloneInLanes(Block *body, IRMapping &mapping, OpBuilder &b,
                  int64_t lanes) {
  auto lanesOf = [&](Type type) { return VectorType::get({lanes}, type); };
  for (Operation &inner : body->without_terminator()) {
    if (isa<arith::ConstantOp>(inner)) {
      Value scalar = b.clone(inner)->getResult(0);
      mapping.map(inner.getResult(0),
                  vector::BroadcastOp::create(
                      b, inner.getLoc(), lanesOf(scalar.getType()), scalar));
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : inner.getOperands()) {
      Value mapped = mapping.lookupOrNull(operand);
      if (!mapped) {
        mapped = vector::BroadcastOp::create(
            b, inner.getLoc(), lanesOf(operand.getType()), operand);
        mapping.map(operand, mapped);
      }
      operands.push_back(mapped);
    }
    SmallVector<Type> types;
    for (Type type : inner.getResultTypes()) {
      types.push_back(lanesOf(type));
    }
    OperationState state(inner.getLoc(), inner.getName(), operands, types,
                         inner.getAttrs());
    mapping.map(inner.getResults(), b.create(state)->getResults());
  }
}

} // namespace

std::optional<SmallVector<Value>> elementIndices(AffineMap map, ValueRange ivs,
                                                 OpBuilder &b, Location loc) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      indices.push_back(ivs[dim.getPosition()]);
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      indices.push_back(arith::ConstantIndexOp::create(b, loc, c.getValue()));
    } else {
      return std::nullopt;
    }
  }
  return indices;
}

SmallVector<Value> buildScalarReduction(linalg::GenericOp op, RewriterBase &b,
                                        Value lower, Value upper,
                                        ValueRange inits,
                                        SmallVectorImpl<Value> &ivs) {
  Location loc = op.getLoc();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto inner = scf::ForOp::create(b, loc, lower, upper, one, inits);
  ivs.back() = inner.getInductionVar();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(inner.getBody());
  IRMapping mapping;
  Block *body = op.getBody();
  for (OpOperand *input : op.getDpsInputOperands()) {
    SmallVector<Value> at =
        *elementIndices(op.getMatchingIndexingMap(input), ivs, b, loc);
    mapping.map(body->getArgument(input->getOperandNumber()),
                memref::LoadOp::create(b, loc, input->get(), at));
  }
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    mapping.map(body->getArgument(init.getOperandNumber()),
                inner.getRegionIterArg(i));
  }
  for (Operation &bodyOp : body->without_terminator()) {
    b.clone(bodyOp, mapping);
  }
  SmallVector<Value> yielded;
  for (Value v : body->getTerminator()->getOperands()) {
    yielded.push_back(mapping.lookupOrDefault(v));
  }
  scf::YieldOp::create(b, loc, yielded);
  return SmallVector<Value>(inner.getResults());
}

bool isExactVectorReduction(linalg::GenericOp op) {
  Block *body = op.getBody();
  unsigned dim = op.getNumLoops() - 1;
  for (auto [i, value] :
       llvm::enumerate(body->getTerminator()->getOperands())) {
    Operation *def = value.getDefiningOp();
    BlockArgument acc = body->getArgument(op.getNumDpsInputs() + i);
    if (!def || def->getBlock() != body || !combiningKind(def) ||
        !acc.hasOneUse() || !llvm::is_contained(def->getOperands(), acc)) {
      return false;
    }
  }
  for (Operation &inner : body->without_terminator()) {
    bool elementwise =
        isa<arith::ConstantOp>(inner) ||
        (isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) &&
         inner.hasTrait<OpTrait::Elementwise>() && inner.getNumRegions() == 0);
    if (!elementwise || !llvm::all_of(inner.getResultTypes(), isLaneType) ||
        !llvm::all_of(inner.getOperandTypes(), isLaneType)) {
      return false;
    }
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isLaneType(body->getArgument(input->getOperandNumber()).getType()) ||
        !llvm::all_of(map.getResults(), [](AffineExpr e) {
          return isa<AffineDimExpr, AffineConstantExpr>(e);
        })) {
      return false;
    }
    if (map.isFunctionOfDim(dim) && !readsAlongInnermost(op, input, dim)) {
      return false;
    }
  }
  return true;
}

SmallVector<Value> buildVectorReduction(linalg::GenericOp op, RewriterBase &b,
                                        Value lower, Value upper,
                                        ValueRange inits,
                                        SmallVectorImpl<Value> &ivs,
                                        int64_t vectorBits) {
  Location loc = op.getLoc();
  Block *body = op.getBody();
  unsigned dim = op.getNumLoops() - 1;
  int64_t lanes = lanesFor(op, vectorBits);
  // Rows of a known length under accumulators * lanes (a Softmax over 40
  // scores: 64 lanes a step) take fewer accumulators, else every element
  // would go to the scalar loop.
  int64_t accumulators = kVectorAccumulators;
  std::optional<int64_t> first = getConstantIntValue(lower);
  std::optional<int64_t> last = getConstantIntValue(upper);
  if (first && last) {
    accumulators =
        std::clamp<int64_t>((*last - *first) / lanes, 1, kVectorAccumulators);
  }
  int64_t step = lanes * accumulators;
  auto lanesOf = [&](Type type) { return VectorType::get({lanes}, type); };
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  // Whole steps from `lower`; the scalar loop takes the rest.
  Value whole = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, upper, lower), index(step)),
      index(step));
  Value vectorEnd = arith::AddIOp::create(b, loc, lower, whole);
  // Accumulator j of result i at i * accumulators + j, each lane
  // starting from the result's own initial value (min/max: once or many
  // times, the same).
  SmallVector<Value> starts;
  for (Value init : inits) {
    Value splat =
        vector::BroadcastOp::create(b, loc, lanesOf(init.getType()), init);
    starts.append(accumulators, splat);
  }
  auto loop = scf::ForOp::create(b, loc, lower, vectorEnd, index(step), starts);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> yielded(starts.size());
    for (int64_t j = 0; j < accumulators; ++j) {
      Value iv = loop.getInductionVar();
      ivs.back() =
          j ? arith::AddIOp::create(b, loc, iv, index(j * lanes)).getResult()
            : iv;
      IRMapping mapping;
      for (OpOperand *input : op.getDpsInputOperands()) {
        AffineMap map = op.getMatchingIndexingMap(input);
        SmallVector<Value> at = *elementIndices(map, ivs, b, loc);
        Type element =
            cast<MemRefType>(input->get().getType()).getElementType();
        Value v = map.isFunctionOfDim(dim)
                      ? vector::LoadOp::create(b, loc, lanesOf(element),
                                               input->get(), at)
                            .getResult()
                      : vector::BroadcastOp::create(
                            b, loc, lanesOf(element),
                            memref::LoadOp::create(b, loc, input->get(), at))
                            .getResult();
        mapping.map(body->getArgument(input->getOperandNumber()), v);
      }
      for (size_t i = 0; i < inits.size(); ++i) {
        mapping.map(body->getArgument(op.getNumDpsInputs() + i),
                    loop.getRegionIterArg(i * accumulators + j));
      }
      cloneInLanes(body, mapping, b, lanes);
      for (auto [i, v] :
           llvm::enumerate(body->getTerminator()->getOperands())) {
        yielded[i * accumulators + j] = mapping.lookup(v);
      }
    }
    scf::YieldOp::create(b, loc, yielded);
  }
  // Each result's accumulators combined with its own op, then its lanes.
  SmallVector<Value> partial;
  for (auto [i, v] : llvm::enumerate(body->getTerminator()->getOperands())) {
    Operation *combine = v.getDefiningOp();
    Value acc = loop.getResult(i * accumulators);
    for (int64_t j = 1; j < accumulators; ++j) {
      Value next = loop.getResult(i * accumulators + j);
      OperationState state(loc, combine->getName(), ValueRange{acc, next},
                           TypeRange{acc.getType()}, combine->getAttrs());
      acc = b.create(state)->getResult(0);
    }
    partial.push_back(
        vector::ReductionOp::create(b, loc, *combiningKind(combine), acc));
  }
  return buildScalarReduction(op, b, vectorEnd, upper, partial, ivs);
}

} // namespace infer::targets
