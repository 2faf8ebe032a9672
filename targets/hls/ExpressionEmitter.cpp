//===- ExpressionEmitter.cpp - arith and math ops as C++ expressions ------===//
//
// Comparisons, integer and float arithmetic, casts and math functions, each
// one C++ expression with the semantics MLIR gives it (wrapping integer
// arithmetic in unsigned types, ordered/unordered float comparisons, ...).
//
//===----------------------------------------------------------------------===//

#include "targets/hls/FunctionEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;

namespace infer::hls {

std::string FunctionEmitter::cmpfExpr(arith::CmpFOp op) {
  std::string a = name(op.getLhs()), b = name(op.getRhs());
  using P = arith::CmpFPredicate;
  switch (op.getPredicate()) {
  case P::AlwaysFalse:
    return "false";
  case P::AlwaysTrue:
    return "true";
  case P::OEQ:
    return a + " == " + b;
  case P::OGT:
    return a + " > " + b;
  case P::OGE:
    return a + " >= " + b;
  case P::OLT:
    return a + " < " + b;
  case P::OLE:
    return a + " <= " + b;
  case P::ONE:
    return "(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::ORD:
    return "(" + a + " == " + a + " && " + b + " == " + b + ")";
  case P::UEQ:
    return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
  case P::UGT:
    return "!(" + a + " <= " + b + ")";
  case P::UGE:
    return "!(" + a + " < " + b + ")";
  case P::ULT:
    return "!(" + a + " >= " + b + ")";
  case P::ULE:
    return "!(" + a + " > " + b + ")";
  case P::UNE:
    return a + " != " + b;
  case P::UNO:
    return "(" + a + " != " + a + " || " + b + " != " + b + ")";
  }
  llvm_unreachable("cmpf predicate");
}

std::string FunctionEmitter::cmpiExpr(arith::CmpIOp op) {
  Type type = op.getLhs().getType();
  std::string a = name(op.getLhs()), b = name(op.getRhs());
  std::string ua = "(" + unsignedType(type) + ")" + a;
  std::string ub = "(" + unsignedType(type) + ")" + b;
  using P = arith::CmpIPredicate;
  switch (op.getPredicate()) {
  case P::eq:
    return a + " == " + b;
  case P::ne:
    return a + " != " + b;
  case P::slt:
    return a + " < " + b;
  case P::sle:
    return a + " <= " + b;
  case P::sgt:
    return a + " > " + b;
  case P::sge:
    return a + " >= " + b;
  case P::ult:
    return ua + " < " + ub;
  case P::ule:
    return ua + " <= " + ub;
  case P::ugt:
    return ua + " > " + ub;
  case P::uge:
    return ua + " >= " + ub;
  }
  llvm_unreachable("cmpi predicate");
}

std::optional<std::string> FunctionEmitter::arithExpr(Operation *op) {
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  std::string t = type ? cType(type) : "";
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  auto cast = [](const std::string &to, const std::string &v) {
    return "(" + to + ")" + v;
  };
  // Integer arithmetic wraps in an unsigned type (signed overflow is
  // undefined in C++, defined in arith); index arithmetic stays plain.
  auto wrapping = [&](StringRef symbol) {
    if (type.isIndex()) {
      return operand(0) + " " + symbol.str() + " " + operand(1);
    }
    std::string w = wrapType(type);
    return cast(t, "(" + cast(w, operand(0)) + " " + symbol.str() + " " +
                       cast(w, operand(1)) + ")");
  };
  auto binary = [&](StringRef symbol) {
    return operand(0) + " " + symbol.str() + " " + operand(1);
  };
  auto shiftAmount = [&]() {
    return "(" + operand(1) + " & " + std::to_string(widthOf(type) - 1) + ")";
  };
  auto srcType = [&]() { return op->getOperand(0).getType(); };
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case<arith::AddFOp>([&](auto) { return binary("+"); })
      .Case<arith::SubFOp>([&](auto) { return binary("-"); })
      .Case<arith::MulFOp>([&](auto) { return binary("*"); })
      .Case<arith::DivFOp>([&](auto) { return binary("/"); })
      .Case<arith::RemFOp>([&](auto) {
        return "std::fmod(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case<arith::NegFOp>([&](auto) { return "-" + operand(0); })
      .Case<arith::MaximumFOp>([&](auto) {
        return "infer_maximum(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return "infer_minimum(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case<arith::MaxNumFOp>([&](auto) {
        return "std::fmax(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case<arith::MinNumFOp>([&](auto) {
        return "std::fmin(" + operand(0) + ", " + operand(1) + ")";
      })
      .Case<arith::AddIOp>([&](auto) -> std::string {
        if (type.isInteger(1)) {
          return binary("!=");
        }
        return wrapping("+");
      })
      .Case<arith::SubIOp>([&](auto) -> std::string {
        if (type.isInteger(1)) {
          return binary("!=");
        }
        return wrapping("-");
      })
      .Case<arith::MulIOp>([&](auto) -> std::string {
        if (type.isInteger(1)) {
          return binary("&&");
        }
        return wrapping("*");
      })
      .Case<arith::DivSIOp>(
          [&](auto) { return cast(t, "(" + binary("/") + ")"); })
      .Case<arith::RemSIOp>(
          [&](auto) { return cast(t, "(" + binary("%") + ")"); })
      .Case<arith::DivUIOp, arith::RemUIOp>([&](auto) {
        std::string u = unsignedType(type);
        return cast(t, "(" + cast(u, operand(0)) +
                           (isa<arith::DivUIOp>(op) ? " / " : " % ") +
                           cast(u, operand(1)) + ")");
      })
      .Case<arith::AndIOp>(
          [&](auto) { return cast(t, "(" + binary("&") + ")"); })
      .Case<arith::OrIOp>(
          [&](auto) { return cast(t, "(" + binary("|") + ")"); })
      .Case<arith::XOrIOp>(
          [&](auto) { return cast(t, "(" + binary("^") + ")"); })
      .Case<arith::ShLIOp>([&](auto) {
        return cast(t, "(" + cast(wrapType(type), operand(0)) + " << " +
                           shiftAmount() + ")");
      })
      .Case<arith::ShRSIOp>([&](auto) {
        return cast(t, "(" + operand(0) + " >> " + shiftAmount() + ")");
      })
      .Case<arith::ShRUIOp>([&](auto) {
        return cast(t, "(" + cast(unsignedType(type), operand(0)) + " >> " +
                           shiftAmount() + ")");
      })
      .Case<arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          [&](auto) {
            bool isUnsigned = isa<arith::MaxUIOp, arith::MinUIOp>(op);
            bool isMax = isa<arith::MaxSIOp, arith::MaxUIOp>(op);
            std::string a = operand(0), b = operand(1);
            std::string ca = isUnsigned ? cast(unsignedType(type), a) : a;
            std::string cb = isUnsigned ? cast(unsignedType(type), b) : b;
            return "(" + ca + (isMax ? " > " : " < ") + cb + " ? " + a + " : " +
                   b + ")";
          })
      .Case<arith::CmpFOp>([&](auto cmp) { return cmpfExpr(cmp); })
      .Case<arith::CmpIOp>([&](auto cmp) { return cmpiExpr(cmp); })
      .Case<arith::SelectOp>([&](auto) {
        return operand(0) + " ? " + operand(1) + " : " + operand(2);
      })
      .Case<arith::ExtSIOp>([&](auto) {
        if (srcType().isInteger(1)) {
          return cast(t, "(" + operand(0) + " ? -1 : 0)");
        }
        return cast(t, operand(0));
      })
      .Case<arith::ExtUIOp, arith::UIToFPOp, arith::FPToUIOp,
            arith::IndexCastUIOp>([&](auto) {
        Type source = srcType();
        if (isa<FloatType>(source)) {
          return cast(t, cast(unsignedType(type), operand(0)));
        }
        return cast(t, cast(unsignedType(source), operand(0)));
      })
      .Case<arith::TruncIOp>([&](auto) -> std::string {
        if (type.isInteger(1)) {
          return "(bool)(" + operand(0) + " & 1)";
        }
        return cast(t, operand(0));
      })
      .Case<arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp, arith::TruncFOp,
            arith::IndexCastOp>([&](auto) { return cast(t, operand(0)); })
      .Case<arith::BitcastOp>(
          [&](auto) { return "infer_bitcast<" + t + ">(" + operand(0) + ")"; })
      .Default([](auto) { return std::nullopt; });
}

std::optional<std::string> FunctionEmitter::mathExpr(Operation *op) {
  auto call = [&](StringRef fn) {
    std::string s = "std::" + fn.str() + "(";
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      s += (i ? ", " : "") + name(v);
    }
    return s + ")";
  };
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case<math::AbsFOp>([&](auto) { return call("fabs"); })
      .Case<math::AbsIOp>([&](auto) {
        std::string a = name(op->getOperand(0));
        return "(" + cType(type) + ")(" + a + " < 0 ? -" + a + " : " + a + ")";
      })
      .Case<math::RsqrtOp>(
          [&](auto) { return "(" + cType(type) + ")1 / " + call("sqrt"); })
      .Case<math::RoundEvenOp>([&](auto) { return call("nearbyint"); })
      .Case<math::PowFOp>([&](auto) { return call("pow"); })
      .Case<math::CopySignOp>([&](auto) { return call("copysign"); })
      .Case<math::IsNaNOp>([&](auto) { return call("isnan"); })
      .Case<math::IsInfOp>([&](auto) { return call("isinf"); })
      .Case<math::IsFiniteOp>([&](auto) { return call("isfinite"); })
      .Default([&](Operation *op) -> std::optional<std::string> {
        // The rest are spelled as in <cmath>: math.exp -> std::exp.
        StringRef fn = op->getName().stripDialect();
        static const char *kCmath[] = {
            "exp",   "exp2",  "expm1", "log",   "log2", "log10",
            "log1p", "sqrt",  "cbrt",  "sin",   "cos",  "tan",
            "asin",  "acos",  "atan",  "atan2", "sinh", "cosh",
            "tanh",  "asinh", "acosh", "atanh", "erf",  "erfc",
            "floor", "ceil",  "round", "trunc", "fma"};
        for (const char *name : kCmath) {
          if (fn == name) {
            return call(fn);
          }
        }
        return std::nullopt;
      });
}

} // namespace infer::hls
