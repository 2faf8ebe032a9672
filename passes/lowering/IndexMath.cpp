//===- IndexMath.cpp - index arithmetic in loop bodies --------------------===//

#include "passes/lowering/IndexMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace infer::lowering {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

SmallVector<int64_t> reducedShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> axes, bool keepDims) {
  SmallVector<int64_t> result;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (!llvm::is_contained(axes, d)) {
      result.push_back(shape[d]);
    } else if (keepDims) {
      result.push_back(1);
    }
  }
  return result;
}

SmallVector<Value> delinearize(OpBuilder &b, Location l, Value flat,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value dim = indexConstant(b, l, shape[d]);
    coords[d] = arith::RemUIOp::create(b, l, flat, dim);
    flat = arith::DivUIOp::create(b, l, flat, dim);
  }
  return coords;
}

Value wrapIndex(OpBuilder &b, Location l, Value v, int64_t dim) {
  Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), v);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i,
                                    indexConstant(b, l, 0));
  return arith::SelectOp::create(
      b, l, neg, arith::AddIOp::create(b, l, i, indexConstant(b, l, dim)), i);
}

Value wrapIndex(OpBuilder &b, Location l, Value v, Value dim) {
  Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), v);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i,
                                    indexConstant(b, l, 0));
  return arith::SelectOp::create(b, l, neg, arith::AddIOp::create(b, l, i, dim),
                                 i);
}

Value clampIndex(OpBuilder &b, Location l, Value i, Value dim) {
  Value lo = arith::MaxSIOp::create(b, l, i, indexConstant(b, l, 0));
  Value last = arith::MaxSIOp::create(
      b, l, arith::SubIOp::create(b, l, dim, indexConstant(b, l, 1)),
      indexConstant(b, l, 0));
  return arith::MinSIOp::create(b, l, lo, last);
}

Value clampIndex(OpBuilder &b, Location l, Value i, int64_t dim) {
  Value lo = arith::MaxSIOp::create(b, l, i, indexConstant(b, l, 0));
  return arith::MinSIOp::create(
      b, l, lo, indexConstant(b, l, std::max<int64_t>(dim - 1, 0)));
}

ValueRange forLoop(
    OpBuilder &b, Location l, Value lo, Value hi, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  return scf::ForOp::create(
             b, l, lo, hi, indexConstant(b, l, 1), init,
             [&](OpBuilder &nb, Location nl, Value i, ValueRange args) {
               scf::YieldOp::create(nb, nl, body(nb, nl, i, args));
             })
      .getResults();
}

OpFoldResult SizeMath::constant(int64_t v) { return b.getIndexAttr(v); }

Value SizeMath::value(OpFoldResult v) {
  return getValueOrCreateConstantIndexOp(b, loc, v);
}

OpFoldResult SizeMath::fold(OpFoldResult x, OpFoldResult y,
                            function_ref<int64_t(int64_t, int64_t)> eval,
                            function_ref<Value(Value, Value)> build) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy) {
    return constant(eval(*cx, *cy));
  }
  return build(value(x), value(y));
}

OpFoldResult SizeMath::add(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(x, 0) || isConstantIntValue(y, 0)) {
    return isConstantIntValue(x, 0) ? y : x;
  }
  return fold(
      x, y, [](int64_t p, int64_t q) { return p + q; },
      [&](Value p, Value q) { return arith::AddIOp::create(b, loc, p, q); });
}

OpFoldResult SizeMath::sub(OpFoldResult x, OpFoldResult y) {
  return fold(
      x, y, [](int64_t p, int64_t q) { return p - q; },
      [&](Value p, Value q) { return arith::SubIOp::create(b, loc, p, q); });
}

OpFoldResult SizeMath::mul(OpFoldResult x, OpFoldResult y) {
  if (isConstantIntValue(x, 1) || isConstantIntValue(y, 1)) {
    return isConstantIntValue(x, 1) ? y : x;
  }
  return fold(
      x, y, [](int64_t p, int64_t q) { return p * q; },
      [&](Value p, Value q) { return arith::MulIOp::create(b, loc, p, q); });
}

OpFoldResult SizeMath::mul(OpFoldResult x, int64_t y) {
  return mul(x, constant(y));
}

OpFoldResult SizeMath::floorDiv(OpFoldResult x, int64_t y) {
  return fold(
      x, constant(y),
      [](int64_t p, int64_t q) { return llvm::divideFloorSigned(p, q); },
      [&](Value p, Value q) {
        return arith::FloorDivSIOp::create(b, loc, p, q);
      });
}

OpFoldResult SizeMath::ceilDiv(OpFoldResult x, int64_t y) {
  return fold(
      x, constant(y),
      [](int64_t p, int64_t q) { return llvm::divideCeilSigned(p, q); },
      [&](Value p, Value q) {
        return arith::CeilDivSIOp::create(b, loc, p, q);
      });
}

OpFoldResult SizeMath::max(OpFoldResult x, OpFoldResult y) {
  return fold(
      x, y, [](int64_t p, int64_t q) { return std::max(p, q); },
      [&](Value p, Value q) { return arith::MaxSIOp::create(b, loc, p, q); });
}

OpFoldResult SizeMath::decrementIf(OpFoldResult x, arith::CmpIPredicate pred,
                                   OpFoldResult lhs, OpFoldResult rhs) {
  std::optional<int64_t> cl = getConstantIntValue(lhs),
                         cr = getConstantIntValue(rhs);
  if (cl && cr) {
    bool holds = arith::applyCmpPredicate(pred, APInt(64, *cl, true),
                                          APInt(64, *cr, true));
    return holds ? sub(x, constant(1)) : x;
  }
  Value cond = arith::CmpIOp::create(b, loc, pred, value(lhs), value(rhs));
  Value less = value(sub(x, constant(1)));
  return arith::SelectOp::create(b, loc, cond, less, value(x)).getResult();
}

} // namespace infer::lowering
