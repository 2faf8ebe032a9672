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

} // namespace infer::lowering
