//===- ScalarMath.cpp - arith ops picked by element type ------------------===//

#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace infer::lowering::scalar {

static bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

std::pair<Value, Value> rotate(OpBuilder &b, Location l, Value re, Value im,
                               Value phase) {
  Value c = math::CosOp::create(b, l, phase);
  Value s = math::SinOp::create(b, l, phase);
  return {arith::SubFOp::create(b, l, arith::MulFOp::create(b, l, re, c),
                                arith::MulFOp::create(b, l, im, s)),
          arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, re, s),
                                arith::MulFOp::create(b, l, im, c))};
}

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

Value absOf(OpBuilder &b, Location l, Value x, bool isUnsigned) {
  if (isFloat(x)) {
    return math::AbsFOp::create(b, l, x);
  }
  if (isUnsigned) {
    return x;
  }
  Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(x.getType()));
  return arith::MaxSIOp::create(b, l, x, arith::SubIOp::create(b, l, zero, x));
}

static Value constant(OpBuilder &b, Location l, Value like, double v) {
  return arith::ConstantOp::create(b, l, b.getFloatAttr(like.getType(), v));
}

static Value below(OpBuilder &b, Location l, Value x, Value bound) {
  return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, bound);
}

Value sigmoid(OpBuilder &b, Location l, Value x) {
  Value one = constant(b, l, x, 1);
  Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
  return arith::DivFOp::create(b, l, one, add(b, l, one, e));
}

Value softplus(OpBuilder &b, Location l, Value x) {
  // max(x, 0) + log(1 + exp(-|x|)): the exponential never overflows, so a
  // large x gives x (as ONNX Runtime computes it), not log(inf).
  Value negAbs = arith::NegFOp::create(b, l, math::AbsFOp::create(b, l, x));
  Value tail = math::Log1pOp::create(b, l, math::ExpOp::create(b, l, negAbs));
  return add(b, l, arith::MaximumFOp::create(b, l, x, constant(b, l, x, 0)),
             tail);
}

Value softsign(OpBuilder &b, Location l, Value x) {
  Value d = add(b, l, constant(b, l, x, 1), math::AbsFOp::create(b, l, x));
  return arith::DivFOp::create(b, l, x, d);
}

Value hardSigmoid(OpBuilder &b, Location l, Value x, double alpha,
                  double beta) {
  Value v = add(b, l, mul(b, l, x, constant(b, l, x, alpha)),
                constant(b, l, x, beta));
  return minOf(b, l, maxOf(b, l, v, constant(b, l, x, 0), false),
               constant(b, l, x, 1), false);
}

Value elu(OpBuilder &b, Location l, Value x, double alpha) {
  Value expm1 = sub(b, l, math::ExpOp::create(b, l, x), constant(b, l, x, 1));
  Value neg = mul(b, l, constant(b, l, x, alpha), expm1);
  return arith::SelectOp::create(b, l, below(b, l, x, constant(b, l, x, 0)),
                                 neg, x);
}

Value leakyRelu(OpBuilder &b, Location l, Value x, double alpha) {
  Value scaled = mul(b, l, x, constant(b, l, x, alpha));
  return arith::SelectOp::create(b, l, below(b, l, x, constant(b, l, x, 0)),
                                 scaled, x);
}

Value thresholdedRelu(OpBuilder &b, Location l, Value x, double alpha) {
  Value over = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x,
                                     constant(b, l, x, alpha));
  return arith::SelectOp::create(b, l, over, x, constant(b, l, x, 0));
}

} // namespace infer::lowering::scalar
