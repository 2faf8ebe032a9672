//===- CppEmitter.cpp - prepared loops on memrefs -> HLS C++ --------------===//

#include "targets/hls/CppEmitter.h"
#include "targets/hls/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

using namespace mlir;

namespace infer::hls {

std::string cType(Type type) {
  if (type.isIndex()) {
    return "int";
  }
  if (type.isF32()) {
    return "float";
  }
  if (type.isF64()) {
    return "double";
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return "bool";
    case 8:
      return "int8_t";
    case 16:
      return "int16_t";
    case 32:
      return "int32_t";
    case 64:
      return "int64_t";
    default:
      return "";
    }
  }
  return "";
}

namespace {

/// The unsigned type of the same width.
std::string unsignedType(Type type) {
  if (type.isIndex()) {
    return "unsigned";
  }
  if (type.isInteger(1)) {
    return "bool";
  }
  return "u" + cType(type);
}

/// The unsigned type arithmetic on `type` wraps in without promotion to int.
std::string wrapType(Type type) {
  return type.getIntOrFloatBitWidth() > 32 ? "uint64_t" : "uint32_t";
}

unsigned widthOf(Type type) {
  return type.isIndex() ? 32 : type.getIntOrFloatBitWidth();
}

bool emittableType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    return memref.hasStaticShape() && memref.getLayout().isIdentity() &&
           !cType(memref.getElementType()).empty();
  }
  return !cType(type).empty();
}

std::string floatLiteral(const APFloat &value, Type type) {
  bool isDouble = type.isF64();
  std::string t = isDouble ? "double" : "float";
  if (value.isNaN()) {
    return "std::numeric_limits<" + t + ">::quiet_NaN()";
  }
  if (value.isInfinity()) {
    return std::string(value.isNegative() ? "-" : "") + "std::numeric_limits<" +
           t + ">::infinity()";
  }
  // Shortest text that reads back to the same value, and a float literal.
  char text[64];
  std::snprintf(text, sizeof text, isDouble ? "%.17g" : "%.9g",
                value.convertToDouble());
  std::string literal = text;
  if (literal.find_first_of(".e") == std::string::npos) {
    literal += ".0";
  }
  return isDouble ? literal : literal + "f";
}

std::string intLiteral(const APInt &value, Type type) {
  if (type.isInteger(1)) {
    return value.isZero() ? "false" : "true";
  }
  int64_t v = type.isIndex() ? value.getSExtValue() : value.getSExtValue();
  unsigned width = widthOf(type);
  if (width == 64) {
    if (v == INT64_MIN) {
      return "(-9223372036854775807LL - 1)";
    }
    return std::to_string(v) + "LL";
  }
  if (width == 32 && v == INT32_MIN) {
    return "(-2147483647 - 1)";
  }
  return std::to_string(v);
}

} // namespace

bool canEmit(Operation *op) {
  for (Type type : op->getOperandTypes()) {
    if (!emittableType(type)) {
      return false;
    }
  }
  for (Type type : op->getResultTypes()) {
    if (!emittableType(type)) {
      return false;
    }
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    return isa<IntegerAttr, FloatAttr>(constant.getValue());
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    return true;
  }
  if (isa<math::CountLeadingZerosOp, math::CountTrailingZerosOp, math::CtPopOp,
          math::IPowIOp, math::FPowIOp>(op)) {
    return false;
  }
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect())) {
    // Scalars only: arith.select can also choose between buffers.
    if (llvm::any_of(op->getOperandTypes(),
                     [](Type t) { return isa<MemRefType>(t); })) {
      return false;
    }
    return !isa<arith::AddUIExtendedOp, arith::MulSIExtendedOp,
                arith::MulUIExtendedOp, arith::ScalingExtFOp,
                arith::ScalingTruncFOp>(op);
  }
  return isa<scf::IfOp, scf::YieldOp, memref::LoadOp, memref::StoreOp,
             memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
             func::CallOp, func::ReturnOp>(op);
}

namespace {

/// One ARRAY_PARTITION pragma per partitioned dimension of `var`.
void emitPartitionPragmas(raw_ostream &os, StringRef var, ArrayAttr partition,
                          unsigned indent = 1) {
  if (!partition) {
    return;
  }
  for (auto dim : partition.getAsRange<DictionaryAttr>()) {
    os.indent(indent * 2) << "#pragma HLS ARRAY_PARTITION variable=" << var
                          << " "
                          << cast<StringAttr>(dim.get("type")).getValue();
    int64_t factor = cast<IntegerAttr>(dim.get("factor")).getInt();
    if (factor > 0) {
      os << " factor=" << factor;
    }
    os << " dim=" << cast<IntegerAttr>(dim.get("dim")).getInt() + 1 << "\n";
  }
}

/// Prints one function body.
class FunctionEmitter {
public:
  FunctionEmitter(raw_ostream &os,
                  const std::map<std::string, std::string> &weights)
      : os(os), weights(weights) {}

  void bind(Value value, std::string name) { names[value] = std::move(name); }
  /// Declare every array static (the top function's buffers).
  bool staticArrays = false;

  LogicalResult emitBlock(Block &block, unsigned indent);
  LogicalResult emitOp(Operation *op, unsigned indent);

private:
  raw_ostream &line(unsigned indent) { return os.indent(indent * 2); }
  std::string name(Value value) { return names.lookup(value); }
  std::string fresh(Value value, StringRef prefix = "v") {
    std::string n = (prefix + Twine(counter++)).str();
    names[value] = n;
    return n;
  }
  /// `T vN = expr;`
  void assign(Value result, const std::string &expr, unsigned indent) {
    std::string type = cType(result.getType());
    std::string n = fresh(result);
    line(indent) << type << " " << n << " = " << expr << ";\n";
  }
  std::string subscripts(Value memref, ValueRange indices) {
    std::string s = name(memref);
    if (indices.empty()) {
      return s + "[0]";
    }
    for (Value index : indices) {
      s += "[" + name(index) + "]";
    }
    return s;
  }
  LogicalResult emitFor(scf::ForOp loop, unsigned indent);
  LogicalResult emitIf(scf::IfOp op, unsigned indent);
  std::optional<std::string> arithExpr(Operation *op);
  std::optional<std::string> mathExpr(Operation *op);
  std::string cmpfExpr(arith::CmpFOp op);
  std::string cmpiExpr(arith::CmpIOp op);

  raw_ostream &os;
  const std::map<std::string, std::string> &weights;
  llvm::DenseMap<Value, std::string> names;
  /// The variables an scf.yield assigns, per enclosing region's op.
  llvm::DenseMap<Operation *, SmallVector<std::string>> yieldTargets;
  unsigned counter = 0;
  unsigned labels = 0;
};

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

LogicalResult FunctionEmitter::emitFor(scf::ForOp loop, unsigned indent) {
  SmallVector<std::string> vars;
  for (auto [init, result, arg] : llvm::zip(
           loop.getInitArgs(), loop.getResults(), loop.getRegionIterArgs())) {
    std::string var = fresh(result);
    bind(arg, var);
    line(indent) << cType(result.getType()) << " " << var << " = " << name(init)
                 << ";\n";
    vars.push_back(var);
  }
  yieldTargets[loop] = vars;
  std::string iv = fresh(loop.getInductionVar(), "i");
  std::string label = "L" + std::to_string(labels++);
  std::string step = name(loop.getStep());
  line(indent) << label << ": for (int " << iv << " = "
               << name(loop.getLowerBound()) << "; " << iv << " < "
               << name(loop.getUpperBound()) << "; "
               << (step == "1" ? "++" + iv : iv + " += " + step) << ") {\n";
  if (auto ii = loop->getAttrOfType<IntegerAttr>(kPipelineAttr)) {
    line(indent + 1) << "#pragma HLS PIPELINE II=" << ii.getInt() << "\n";
  }
  if (auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollAttr)) {
    line(indent + 1) << "#pragma HLS UNROLL factor=" << factor.getInt() << "\n";
  }
  if (failed(emitBlock(*loop.getBody(), indent + 1))) {
    return failure();
  }
  line(indent) << "}\n";
  return success();
}

LogicalResult FunctionEmitter::emitIf(scf::IfOp op, unsigned indent) {
  SmallVector<std::string> vars;
  for (Value result : op.getResults()) {
    std::string var = fresh(result);
    line(indent) << cType(result.getType()) << " " << var << ";\n";
    vars.push_back(var);
  }
  yieldTargets[op] = vars;
  line(indent) << "if (" << name(op.getCondition()) << ") {\n";
  if (failed(emitBlock(op.getThenRegion().front(), indent + 1))) {
    return failure();
  }
  if (!op.getElseRegion().empty()) {
    line(indent) << "} else {\n";
    if (failed(emitBlock(op.getElseRegion().front(), indent + 1))) {
      return failure();
    }
  }
  line(indent) << "}\n";
  return success();
}

/// `float name[2][3]`, or `name[1]` for a rank-0 array. A zero-sized
/// dimension is declared with one element (C++ has no empty arrays); no
/// loop ever indexes it.
std::string arrayDeclarator(MemRefType type, StringRef name) {
  std::string s = cType(type.getElementType()) + " " + name.str();
  if (type.getRank() == 0) {
    return s + "[1]";
  }
  for (int64_t dim : type.getShape()) {
    s += dim == 0 ? std::string("[1 /* empty */]")
                  : "[" + std::to_string(dim) + "]";
  }
  return s;
}

LogicalResult FunctionEmitter::emitOp(Operation *op, unsigned indent) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Type type = constant.getType();
    if (auto f = dyn_cast<FloatAttr>(constant.getValue())) {
      bind(constant, floatLiteral(f.getValue(), type));
    } else {
      bind(constant,
           intLiteral(cast<IntegerAttr>(constant.getValue()).getValue(), type));
    }
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    return emitFor(loop, indent);
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    return emitIf(ifOp, indent);
  }
  if (auto yield = dyn_cast<scf::YieldOp>(op)) {
    const SmallVector<std::string> &vars = yieldTargets[op->getParentOp()];
    if (vars.size() == 1) {
      line(indent) << vars[0] << " = " << name(yield.getOperand(0)) << ";\n";
    } else if (!vars.empty()) {
      // Through temporaries: a yield may swap loop-carried values.
      for (auto [i, value] : llvm::enumerate(yield.getOperands())) {
        line(indent) << cType(value.getType()) << " t" << i << "_" << counter
                     << " = " << name(value) << ";\n";
      }
      for (auto [i, var] : llvm::enumerate(vars)) {
        line(indent) << var << " = t" << i << "_" << counter << ";\n";
      }
      ++counter;
    }
    return success();
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    assign(load.getResult(), subscripts(load.getMemRef(), load.getIndices()),
           indent);
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    line(indent) << subscripts(store.getMemRef(), store.getIndices()) << " = "
                 << name(store.getValueToStore()) << ";\n";
    return success();
  }
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    std::string var = fresh(op->getResult(0), "buf");
    // Arrays too large for a C-simulation stack live in static storage.
    bool large =
        staticArrays ||
        type.getNumElements() *
                std::max<int64_t>(1, type.getElementTypeBitWidth() / 8) >
            16384;
    line(indent) << (large ? "static " : "") << arrayDeclarator(type, var)
                 << ";\n";
    emitPartitionPragmas(os, var, op->getAttrOfType<ArrayAttr>(kPartitionAttr),
                         indent);
    return success();
  }
  if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
    auto it = weights.find(global.getName().str());
    if (it == weights.end()) {
      return op->emitError("no weights array for @") << global.getName();
    }
    bind(global, it->second);
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    line(indent) << call.getCallee() << "(";
    for (auto [i, arg] : llvm::enumerate(call.getOperands())) {
      os << (i ? ", " : "") << name(arg);
    }
    os << ");\n";
    return success();
  }
  if (isa<func::ReturnOp>(op)) {
    return success(); // void functions fall off their end
  }
  std::optional<std::string> expr = arithExpr(op);
  if (!expr) {
    expr = mathExpr(op);
  }
  if (!expr || op->getNumResults() != 1) {
    return op->emitError("the HLS C++ emitter has no spelling for '")
           << op->getName() << "'";
  }
  assign(op->getResult(0), *expr, indent);
  return success();
}

LogicalResult FunctionEmitter::emitBlock(Block &block, unsigned indent) {
  for (Operation &op : block) {
    if (failed(emitOp(&op, indent))) {
      return failure();
    }
  }
  return success();
}

bool writes(func::FuncOp fn, unsigned arg) {
  auto access = fn.getArgAttrOfType<StringAttr>(arg, kAccessAttr);
  return !access || access.getValue() != "read";
}

std::string parameterList(func::FuncOp fn, const std::vector<PortInfo> *ports) {
  std::string s;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    auto type = cast<MemRefType>(fn.getArgumentTypes()[i]);
    std::string n = ports ? (*ports)[i].name : "a" + std::to_string(i);
    std::string declarator = arrayDeclarator(type, n);
    if (ports) {
      declarator = (*ports)[i].cType +
                   declarator.substr(cType(type.getElementType()).size());
    }
    bool readOnly = ports ? !(*ports)[i].isOutput : !writes(fn, i);
    s += (i ? ", " : "") + std::string(readOnly ? "const " : "") + declarator;
  }
  return s;
}

} // namespace

std::string topDeclaration(ModuleOp module, StringRef topName,
                           const std::vector<PortInfo> &ports) {
  func::FuncOp top = findTop(module);
  return "void " + topName.str() + "(" + parameterList(top, &ports) + ")";
}

LogicalResult emitFunctions(ModuleOp module, StringRef topName,
                            const std::vector<PortInfo> &ports,
                            const std::map<std::string, std::string> &weights,
                            raw_ostream &os) {
  func::FuncOp top = findTop(module);
  if (!top || top.getNumArguments() != ports.size()) {
    return module.emitError("no prepared top function with ")
           << ports.size() << " ports";
  }
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn == top) {
      continue;
    }
    auto nodes = fn->getAttrOfType<ArrayAttr>(kLayerAttr);
    os << "// ONNX ";
    if (nodes && !nodes.empty()) {
      os << (nodes.size() > 1 ? "nodes " : "node ");
      llvm::interleaveComma(nodes.getAsValueRange<StringAttr>(), os);
    } else {
      os << "graph glue";
    }
    os << "\nstatic void " << fn.getSymName() << "("
       << parameterList(fn, nullptr) << ") {\n";
    os << "  #pragma HLS INLINE off\n";
    FunctionEmitter emitter(os, weights);
    for (BlockArgument arg : fn.getArguments()) {
      emitter.bind(arg, "a" + std::to_string(arg.getArgNumber()));
      emitPartitionPragmas(
          os, "a" + std::to_string(arg.getArgNumber()),
          fn.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), kPartitionAttr));
    }
    if (failed(emitter.emitBlock(fn.getBody().front(), 1))) {
      return failure();
    }
    os << "}\n\n";
  }

  os << topDeclaration(module, topName, ports) << " {\n";
  for (auto [i, port] : llvm::enumerate(ports)) {
    auto type = cast<MemRefType>(top.getArgumentTypes()[i]);
    os << "  #pragma HLS INTERFACE m_axi port=" << port.name
       << " offset=slave bundle=gmem" << i
       << " depth=" << std::max<int64_t>(1, type.getNumElements()) << "\n";
    os << "  #pragma HLS INTERFACE s_axilite port=" << port.name
       << " bundle=control\n";
  }
  os << "  #pragma HLS INTERFACE s_axilite port=return bundle=control\n";
  if (top->hasAttr(kDataflowAttr)) {
    os << "  #pragma HLS DATAFLOW\n";
  } else if (auto why = top->getAttrOfType<StringAttr>(kDataflowBlockedAttr)) {
    os << "  // No DATAFLOW: " << why.getValue() << ".\n";
  }
  FunctionEmitter emitter(os, weights);
  emitter.staticArrays = true;
  for (auto [i, port] : llvm::enumerate(ports)) {
    // A port whose C++ type differs from the layers' (uint8_t ports, int8_t
    // arithmetic) is passed to them through a cast of the same layout.
    auto type = cast<MemRefType>(top.getArgumentTypes()[i]);
    std::string irType = cType(type.getElementType());
    if (irType == port.cType) {
      emitter.bind(top.getArgument(i), port.name);
      continue;
    }
    std::string pointee = irType + " *";
    if (type.getRank() > 1) {
      pointee = irType + " (*)";
      for (int64_t dim : type.getShape().drop_front()) {
        pointee += "[" + std::to_string(dim) + "]";
      }
    }
    emitter.bind(top.getArgument(i), "(" + pointee + ")" + port.name);
  }
  for (auto global : module.getOps<memref::GlobalOp>()) {
    auto it = weights.find(global.getSymName().str());
    if (it != weights.end()) {
      emitPartitionPragmas(os, it->second,
                           global->getAttrOfType<ArrayAttr>(kPartitionAttr));
    }
  }
  // The buffers first, then the layers in order (a DATAFLOW region reads
  // as a list of processes).
  Block &body = top.getBody().front();
  for (Operation &op : body) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
        failed(emitter.emitOp(&op, 1))) {
      return failure();
    }
  }
  for (Operation &op : body) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op) &&
        failed(emitter.emitOp(&op, 1))) {
      return failure();
    }
  }
  os << "}\n";
  return success();
}

std::map<std::string, std::string> weightNames(ModuleOp module,
                                               StringRef prefix) {
  std::map<std::string, std::string> names;
  std::set<std::string> used;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    std::string id = prefix.str() + "_";
    for (char c : global.getSymName()) {
      bool ok = std::isalnum(static_cast<unsigned char>(c));
      if (ok) {
        id.push_back(c);
      } else if (id.back() != '_') {
        id.push_back('_'); // no "__": reserved in C++
      }
    }
    std::string unique = id;
    for (int n = 1; !used.insert(unique).second; ++n) {
      unique = id + "_" + std::to_string(n);
    }
    names[global.getSymName().str()] = unique;
  }
  return names;
}

namespace {

/// The literals of `attr`'s elements, in row-major order.
FailureOr<std::vector<std::string>> elementLiterals(ElementsAttr attr) {
  Type element = attr.getElementType();
  std::vector<std::string> out;
  out.reserve(attr.getNumElements());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isa<FloatType>(element)) {
      for (const APFloat &v : dense.getValues<APFloat>()) {
        out.push_back(floatLiteral(v, element));
      }
    } else {
      for (const APInt &v : dense.getValues<APInt>()) {
        out.push_back(intLiteral(v, element));
      }
    }
    return out;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob) {
    return failure();
  }
  ArrayRef<char> data = blob->getData();
  unsigned bytes =
      element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
  if (data.size() < static_cast<size_t>(attr.getNumElements()) * bytes) {
    return failure();
  }
  for (int64_t i = 0; i < attr.getNumElements(); ++i) {
    const char *p = data.data() + i * bytes;
    if (element.isF32()) {
      float f;
      std::memcpy(&f, p, 4);
      out.push_back(floatLiteral(APFloat(f), element));
    } else if (element.isF64()) {
      double d;
      std::memcpy(&d, p, 8);
      out.push_back(floatLiteral(APFloat(d), element));
    } else {
      uint64_t raw = 0;
      std::memcpy(&raw, p, bytes); // little-endian hosts
      unsigned width = element.isInteger(1) ? 1 : bytes * 8;
      out.push_back(
          intLiteral(APInt(width, width == 1 ? raw & 1 : raw), element));
    }
  }
  return out;
}

} // namespace

LogicalResult emitWeights(ModuleOp module,
                          const std::map<std::string, std::string> &names,
                          raw_ostream &os) {
  for (auto global : module.getOps<memref::GlobalOp>()) {
    MemRefType type = global.getType();
    if (!emittableType(type)) {
      return global.emitError("weights of type ")
             << type << " have no C++ array type";
    }
    std::string declarator =
        arrayDeclarator(type, names.at(global.getSymName().str()));
    auto init = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
    if (!init) {
      os << "static " << declarator << ";\n\n";
      continue;
    }
    FailureOr<std::vector<std::string>> values = elementLiterals(init);
    if (failed(values)) {
      return global.emitError("cannot read the values of weights @")
             << global.getSymName();
    }
    os << "static " << (global.getConstant() ? "const " : "") << declarator
       << " = {";
    for (size_t i = 0; i < values->size(); ++i) {
      os << (i % 8 == 0 ? "\n    " : " ") << (*values)[i]
         << (i + 1 < values->size() ? "," : "");
    }
    os << "\n};\n\n";
  }
  return success();
}

} // namespace infer::hls
