//===- ScalarMath.cpp - arith ops picked by element type ------------------===//

#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace infer::lowering::scalar {

static bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value add(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x) ? arith::AddFOp::create(b, l, x, y).getResult()
                    : arith::AddIOp::create(b, l, x, y).getResult();
}

Value sub(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x) ? arith::SubFOp::create(b, l, x, y).getResult()
                    : arith::SubIOp::create(b, l, x, y).getResult();
}

Value mul(OpBuilder &b, Location l, Value x, Value y) {
  return isFloat(x) ? arith::MulFOp::create(b, l, x, y).getResult()
                    : arith::MulIOp::create(b, l, x, y).getResult();
}

Value div(OpBuilder &b, Location l, Value x, Value y, bool isUnsigned) {
  if (isFloat(x)) {
    return arith::DivFOp::create(b, l, x, y);
  }
  return isUnsigned ? arith::DivUIOp::create(b, l, x, y).getResult()
                    : arith::DivSIOp::create(b, l, x, y).getResult();
}

Value maxOf(OpBuilder &b, Location l, Value x, Value y, bool isUnsigned) {
  if (isFloat(x)) {
    return arith::MaximumFOp::create(b, l, x, y);
  }
  return isUnsigned ? arith::MaxUIOp::create(b, l, x, y).getResult()
                    : arith::MaxSIOp::create(b, l, x, y).getResult();
}

Value minOf(OpBuilder &b, Location l, Value x, Value y, bool isUnsigned) {
  if (isFloat(x)) {
    return arith::MinimumFOp::create(b, l, x, y);
  }
  return isUnsigned ? arith::MinUIOp::create(b, l, x, y).getResult()
                    : arith::MinSIOp::create(b, l, x, y).getResult();
}

} // namespace infer::lowering::scalar
