//===- ElementwiseLowering.cpp - elementwise graph ops -> linalg.generic --===//
//
// One pattern lowers every elementwise op: a table maps the op name to the
// scalar computation; broadcasting, none operands and types are shared.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>

using namespace mlir;

namespace infer::lowering {
namespace {

using scalar::absOf;
using scalar::add;
using scalar::div;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;
using scalar::sub;

struct Scalar {
  Operation *op;
  Type type;        // result element type (signless)
  bool isUnsigned;  // the first input's signedness
  bool outUnsigned; // the result's signedness
};

using Body = Value (*)(OpBuilder &, Location, const Scalar &, ArrayRef<Value>);

double attrF(Operation *op, StringRef name, double def) {
  if (auto attr = op->getAttrOfType<FloatAttr>(name)) {
    return attr.getValueAsDouble();
  }
  return def;
}

int64_t attrI(Operation *op, StringRef name, int64_t def) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name)) {
    return attr.getInt();
  }
  return def;
}

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value cst(OpBuilder &b, Location l, Type t, double v) {
  return scalarConstant(b, l, t, v);
}

Value cmp(OpBuilder &b, Location l, arith::CmpFPredicate fp,
          arith::CmpIPredicate sp, arith::CmpIPredicate up, Value x, Value y,
          bool isUnsigned) {
  if (isFloat(x)) {
    return arith::CmpFOp::create(b, l, fp, x, y);
  }
  return arith::CmpIOp::create(b, l, isUnsigned ? up : sp, x, y);
}
Value select(OpBuilder &b, Location l, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, l, c, x, y);
}
Value expm1(OpBuilder &b, Location l, Value x) {
  return sub(b, l, math::ExpOp::create(b, l, x), cst(b, l, x.getType(), 1));
}
Value isNegative(OpBuilder &b, Location l, Value x) {
  return cmp(b, l, arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt,
             arith::CmpIPredicate::ult, x, cst(b, l, x.getType(), 0), false);
}

#define UNARY_MATH(NAME, OP)                                                   \
  Value NAME(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {    \
    return math::OP::create(b, l, a[0]);                                       \
  }
UNARY_MATH(acosB, AcosOp)
UNARY_MATH(acoshB, AcoshOp)
UNARY_MATH(asinB, AsinOp)
UNARY_MATH(asinhB, AsinhOp)
UNARY_MATH(atanB, AtanOp)
UNARY_MATH(atanhB, AtanhOp)
UNARY_MATH(ceilB, CeilOp)
UNARY_MATH(cosB, CosOp)
UNARY_MATH(coshB, CoshOp)
UNARY_MATH(erfB, ErfOp)
UNARY_MATH(expB, ExpOp)
UNARY_MATH(floorB, FloorOp)
UNARY_MATH(logB, LogOp)
UNARY_MATH(roundB, RoundEvenOp)
UNARY_MATH(sinB, SinOp)
UNARY_MATH(sinhB, SinhOp)
UNARY_MATH(sqrtB, SqrtOp)
UNARY_MATH(tanB, TanOp)
UNARY_MATH(tanhB, TanhOp)
#undef UNARY_MATH

Value absB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return absOf(b, l, a[0], s.isUnsigned);
}
Value negB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  if (isFloat(a[0])) {
    return arith::NegFOp::create(b, l, a[0]);
  }
  return sub(b, l, cst(b, l, a[0].getType(), 0), a[0]);
}
Value reciprocalB(OpBuilder &b, Location l, const Scalar &s,
                  ArrayRef<Value> a) {
  return div(b, l, cst(b, l, a[0].getType(), 1), a[0], s.isUnsigned);
}
Value sigmoidB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return scalar::sigmoid(b, l, a[0]);
}
Value signB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  Value zero = cst(b, l, t, 0);
  Value pos = cmp(b, l, arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt,
                  arith::CmpIPredicate::ugt, a[0], zero, s.isUnsigned);
  Value neg = cmp(b, l, arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt,
                  arith::CmpIPredicate::ult, a[0], zero, s.isUnsigned);
  Value r = select(b, l, neg, cst(b, l, t, -1), zero);
  r = select(b, l, pos, cst(b, l, t, 1), r);
  if (isFloat(a[0])) { // NaN stays NaN.
    Value nan =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, a[0], a[0]);
    r = select(b, l, nan, a[0], r);
  }
  return r;
}
Value softplusB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return scalar::softplus(b, l, a[0]);
}
Value softsignB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return scalar::softsign(b, l, a[0]);
}
Value reluB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return maxOf(b, l, a[0], cst(b, l, a[0].getType(), 0), s.isUnsigned);
}
Value hardSigmoidB(OpBuilder &b, Location l, const Scalar &s,
                   ArrayRef<Value> a) {
  return scalar::hardSigmoid(b, l, a[0], attrF(s.op, "alpha", 0.2),
                             attrF(s.op, "beta", 0.5));
}
Value hardSwishB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return mul(b, l, a[0], scalar::hardSigmoid(b, l, a[0], 1.0 / 6, 0.5));
}
Value mishB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return mul(b, l, a[0], math::TanhOp::create(b, l, softplusB(b, l, s, a)));
}
Value notB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::XOrIOp::create(b, l, a[0], cst(b, l, a[0].getType(), 1));
}
Value bitwiseNotB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::XOrIOp::create(b, l, a[0], cst(b, l, a[0].getType(), -1));
}
Value isNaNB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, a[0], a[0]);
}
Value isInfB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  Value pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0],
                                    cst(b, l, t, INFINITY));
  Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0],
                                    cst(b, l, t, -INFINITY));
  Value no = cst(b, l, b.getI1Type(), 0);
  Value r1 = attrI(s.op, "detect_positive", 1) ? pos : no;
  Value r2 = attrI(s.op, "detect_negative", 1) ? neg : no;
  return arith::OrIOp::create(b, l, r1, r2);
}
Value eluB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return scalar::elu(b, l, a[0], attrF(s.op, "alpha", 1.0));
}
Value seluB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  Value neg =
      mul(b, l, cst(b, l, t, attrF(s.op, "alpha", 1.67326319217681884765625)),
          expm1(b, l, a[0]));
  Value pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0],
                                    cst(b, l, t, 0));
  Value v = select(b, l, pos, a[0], neg);
  return mul(b, l, v,
             cst(b, l, t, attrF(s.op, "gamma", 1.05070102214813232421875)));
}
Value leakyReluB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return scalar::leakyRelu(b, l, a[0], attrF(s.op, "alpha", 0.01));
}
Value celuB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  Value alpha = cst(b, l, t, attrF(s.op, "alpha", 1.0));
  Value e =
      mul(b, l, alpha, expm1(b, l, arith::DivFOp::create(b, l, a[0], alpha)));
  Value zero = cst(b, l, t, 0);
  return add(b, l, maxOf(b, l, a[0], zero, false), minOf(b, l, zero, e, false));
}
Value thresholdedReluB(OpBuilder &b, Location l, const Scalar &s,
                       ArrayRef<Value> a) {
  return scalar::thresholdedRelu(b, l, a[0], attrF(s.op, "alpha", 1.0));
}
Value shrinkB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  bool f = isFloat(a[0]);
  double lambd = attrF(s.op, "lambd", 0.5), bias = attrF(s.op, "bias", 0.0);
  Value x =
      f ? a[0] : castScalar(b, l, a[0], b.getF64Type(), s.isUnsigned, false);
  Type ft = x.getType();
  Value lo = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x,
                                   cst(b, l, ft, -lambd));
  Value hi = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x,
                                   cst(b, l, ft, lambd));
  Value r =
      select(b, l, hi, sub(b, l, x, cst(b, l, ft, bias)), cst(b, l, ft, 0));
  r = select(b, l, lo, add(b, l, x, cst(b, l, ft, bias)), r);
  return f ? r : castScalar(b, l, r, t, false, s.isUnsigned);
}
Value geluB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Type t = a[0].getType();
  Value x = a[0];
  Value half = mul(b, l, x, cst(b, l, t, 0.5));
  auto approx = s.op->getAttrOfType<StringAttr>("approximate");
  Value inner;
  if (approx && approx.getValue() == "tanh") {
    Value x3 = mul(b, l, mul(b, l, x, x), x);
    Value v = add(b, l, x, mul(b, l, x3, cst(b, l, t, 0.044715)));
    inner = math::TanhOp::create(
        b, l, mul(b, l, v, cst(b, l, t, std::sqrt(2.0 / M_PI))));
  } else {
    inner = math::ErfOp::create(b, l, mul(b, l, x, cst(b, l, t, M_SQRT1_2)));
  }
  return mul(b, l, half, add(b, l, cst(b, l, t, 1), inner));
}
Value castB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return castScalar(b, l, a[0], s.type, s.isUnsigned, s.outUnsigned);
}
Value clipB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value r = a[0];
  if (a.size() > 1 && a[1]) {
    r = maxOf(b, l, r, a[1], s.isUnsigned);
  }
  if (a.size() > 2 && a[2]) {
    r = minOf(b, l, r, a[2], s.isUnsigned);
  }
  return r;
}

// Binary.
Value addB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return add(b, l, a[0], a[1]);
}
Value subB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return sub(b, l, a[0], a[1]);
}
Value mulB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return mul(b, l, a[0], a[1]);
}
Value divB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return div(b, l, a[0], a[1], s.isUnsigned);
}
Value powB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value x = a[0], y = a[1];
  if (isFloat(x)) {
    if (!isFloat(y)) {
      y = castScalar(b, l, y, x.getType(), false, false);
    } else if (y.getType() != x.getType()) {
      y = castScalar(b, l, y, x.getType(), false, false);
    }
    return math::PowFOp::create(b, l, x, y);
  }
  // Integer base: compute in f64 and truncate, as ONNX Runtime does.
  Value fx = castScalar(b, l, x, b.getF64Type(), s.isUnsigned, false);
  Value fy = castScalar(b, l, y, b.getF64Type(), false, false);
  Value r = math::PowFOp::create(b, l, fx, fy);
  return castScalar(b, l, r, x.getType(), false, s.isUnsigned);
}
Value modB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value x = a[0], y = a[1];
  if (!isFloat(x) && s.isUnsigned) {
    return arith::RemUIOp::create(b, l, x, y);
  }
  Value r = isFloat(x) ? arith::RemFOp::create(b, l, x, y).getResult()
                       : arith::RemSIOp::create(b, l, x, y).getResult();
  if (attrI(s.op, "fmod", 0)) {
    return r;
  }
  // fmod=0 (Python's and numpy's mod, also on floats as ONNX's reference
  // does): the result takes the divisor's sign.
  Value zero = cst(b, l, x.getType(), 0);
  auto test = [&](arith::CmpFPredicate fp, arith::CmpIPredicate ip, Value v) {
    return cmp(b, l, fp, ip, ip, v, zero, false);
  };
  Value nonzero = test(arith::CmpFPredicate::ONE, arith::CmpIPredicate::ne, r);
  Value differ = arith::XOrIOp::create(
      b, l, test(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, r),
      test(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, y));
  Value fix = arith::AndIOp::create(b, l, nonzero, differ);
  return select(b, l, fix, add(b, l, r, y), r);
}
Value andB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::AndIOp::create(b, l, a[0], a[1]);
}
Value orB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::OrIOp::create(b, l, a[0], a[1]);
}
Value xorB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return arith::XOrIOp::create(b, l, a[0], a[1]);
}
#define COMPARE(NAME, FP, SP, UP)                                              \
  Value NAME(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {   \
    return cmp(b, l, arith::CmpFPredicate::FP, arith::CmpIPredicate::SP,       \
               arith::CmpIPredicate::UP, a[0], a[1], s.isUnsigned);            \
  }
COMPARE(equalB, OEQ, eq, eq)
COMPARE(greaterB, OGT, sgt, ugt)
COMPARE(greaterOrEqualB, OGE, sge, uge)
COMPARE(lessB, OLT, slt, ult)
COMPARE(lessOrEqualB, OLE, sle, ule)
#undef COMPARE
/// Shifts by a negative amount or by the width or more (undefined in
/// LLVM) fill with zeros, or for a right shift of a negative signed value
/// with ones, as ONNX's reference does. Right shifts of signed types are
/// arithmetic.
Value bitShiftB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value x = a[0], n = a[1];
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = cst(b, l, type, 0);
  Value tooFar = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, n,
                                       cst(b, l, type, width));
  if (!s.isUnsigned) {
    Value negative =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, n, zero);
    tooFar = arith::OrIOp::create(b, l, tooFar, negative);
  }
  auto dir = s.op->getAttrOfType<StringAttr>("direction");
  if (dir && dir.getValue() == "LEFT") {
    return select(b, l, tooFar, zero, arith::ShLIOp::create(b, l, x, n));
  }
  if (s.isUnsigned) {
    return select(b, l, tooFar, zero, arith::ShRUIOp::create(b, l, x, n));
  }
  Value fill = select(
      b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, zero),
      cst(b, l, type, -1), zero);
  return select(b, l, tooFar, fill, arith::ShRSIOp::create(b, l, x, n));
}
Value pReluB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return select(b, l, isNegative(b, l, a[0]), mul(b, l, a[0], a[1]), a[0]);
}

// Variadic and ternary.
Value maxB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value r = a[0];
  for (Value v : a.drop_front()) {
    r = maxOf(b, l, r, v, s.isUnsigned);
  }
  return r;
}
Value minB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  Value r = a[0];
  for (Value v : a.drop_front()) {
    r = minOf(b, l, r, v, s.isUnsigned);
  }
  return r;
}
Value sumB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  Value r = a[0];
  for (Value v : a.drop_front()) {
    r = add(b, l, r, v);
  }
  return r;
}
Value meanB(OpBuilder &b, Location l, const Scalar &s, ArrayRef<Value> a) {
  return div(b, l, sumB(b, l, s, a), cst(b, l, a[0].getType(), a.size()),
             s.isUnsigned);
}
Value whereB(OpBuilder &b, Location l, const Scalar &, ArrayRef<Value> a) {
  return select(b, l, a[0], a[1], a[2]);
}

const llvm::StringMap<Body> &bodies() {
  static const llvm::StringMap<Body> table = {
      {"graph.abs", absB},
      {"graph.acos", acosB},
      {"graph.acosh", acoshB},
      {"graph.asin", asinB},
      {"graph.asinh", asinhB},
      {"graph.atan", atanB},
      {"graph.atanh", atanhB},
      {"graph.ceil", ceilB},
      {"graph.cos", cosB},
      {"graph.cosh", coshB},
      {"graph.erf", erfB},
      {"graph.exp", expB},
      {"graph.floor", floorB},
      {"graph.log", logB},
      {"graph.neg", negB},
      {"graph.not", notB},
      {"graph.bitwise_not", bitwiseNotB},
      {"graph.reciprocal", reciprocalB},
      {"graph.round", roundB},
      {"graph.sigmoid", sigmoidB},
      {"graph.sign", signB},
      {"graph.sin", sinB},
      {"graph.sinh", sinhB},
      {"graph.softplus", softplusB},
      {"graph.softsign", softsignB},
      {"graph.sqrt", sqrtB},
      {"graph.tan", tanB},
      {"graph.tanh", tanhB},
      {"graph.relu", reluB},
      {"graph.hard_swish", hardSwishB},
      {"graph.mish", mishB},
      {"graph.is_nan", isNaNB},
      {"graph.is_inf", isInfB},
      {"graph.elu", eluB},
      {"graph.selu", seluB},
      {"graph.leaky_relu", leakyReluB},
      {"graph.hard_sigmoid", hardSigmoidB},
      {"graph.celu", celuB},
      {"graph.thresholded_relu", thresholdedReluB},
      {"graph.shrink", shrinkB},
      {"graph.gelu", geluB},
      {"graph.cast", castB},
      {"graph.cast_like", castB},
      {"graph.clip", clipB},
      {"graph.add", addB},
      {"graph.sub", subB},
      {"graph.mul", mulB},
      {"graph.div", divB},
      {"graph.pow", powB},
      {"graph.mod", modB},
      {"graph.and", andB},
      {"graph.or", orB},
      {"graph.xor", xorB},
      {"graph.bitwise_and", andB},
      {"graph.bitwise_or", orB},
      {"graph.bitwise_xor", xorB},
      {"graph.equal", equalB},
      {"graph.greater", greaterB},
      {"graph.greater_or_equal", greaterOrEqualB},
      {"graph.less", lessB},
      {"graph.less_or_equal", lessOrEqualB},
      {"graph.bit_shift", bitShiftB},
      {"graph.p_relu", pReluB},
      {"graph.max", maxB},
      {"graph.min", minB},
      {"graph.sum", sumB},
      {"graph.mean", meanB},
      {"graph.where", whereB},
  };
  return table;
}

/// Ops whose second operand only carries a type (CastLike): not an input.
bool ignoresOperand(StringRef name, unsigned index) {
  return name == "graph.cast_like" && index == 1;
}

struct ElementwiseLowering final : ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef name = op->getName().getStringRef();
    auto it = bodies().find(name);
    if (it == bodies().end() || op->getNumResults() != 1) {
      return failure();
    }
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    Body body = it->second;
    auto resultType = loweredAnyShapeType(op->getResult(0).getType());
    SmallVector<Value> inputs;
    SmallVector<int> slot; // operand index -> generic argument (or -1)
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (isa<NoneType>(operand.getType()) || ignoresOperand(name, i)) {
        slot.push_back(-1);
        continue;
      }
      slot.push_back(inputs.size());
      inputs.push_back(operands[i]);
    }
    if (!hasBroadcastSizes(resultType, inputs)) {
      return rewriter.notifyMatchFailure(
          op, "a dynamic result dim that no operand's dynamic dim sizes");
    }
    Scalar scalar{op, resultType.getElementType(),
                  isUnsignedTensor(
                      op->getOperand(name == "graph.where" ? 1 : 0).getType()),
                  isUnsignedTensor(op->getResult(0).getType())};
    Value result = buildElementwise(
        rewriter, op->getLoc(), resultType, inputs,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> full;
          for (int s : slot) {
            full.push_back(s < 0 ? Value() : args[s]);
          }
          return body(b, loc, scalar, full);
        },
        op);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateElementwiseLoweringPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ElementwiseLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
