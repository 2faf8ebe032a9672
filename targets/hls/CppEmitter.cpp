//===- CppEmitter.cpp - prepared loops on memrefs -> HLS C++ --------------===//

#include "targets/hls/CppEmitter.h"
#include "targets/hls/FunctionEmitter.h"
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

/// One ARRAY_PARTITION pragma per partitioned dimension of `var`.
void emitPartitionPragmas(raw_ostream &os, StringRef var, ArrayAttr partition,
                          unsigned indent) {
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

namespace {

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
                            raw_ostream &os, bool profile) {
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
  int layer = 0;
  for (Operation &op : body) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      continue;
    }
    bool timed = profile && isa<func::CallOp>(op);
    if (timed) {
      os << "  INFER_LAYER_BEGIN(" << layer << ");\n";
    }
    if (failed(emitter.emitOp(&op, 1))) {
      return failure();
    }
    if (timed) {
      os << "  INFER_LAYER_END(" << layer++ << ");\n";
    }
  }
  os << "}\n";
  return success();
}

} // namespace infer::hls
