//===- FunctionEmitter.h - one HLS C++ function body ------------*- C++ -*-===//
//
// The pieces of the C++ emitter (CppEmitter.cpp prints statements and
// functions, ExpressionEmitter.cpp arith and math ops as C++ expressions,
// WeightsEmitter.cpp the weight arrays) share this class and the type
// helpers. Internal to targets/hls.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_FUNCTIONEMITTER_H
#define INFER_TARGETS_HLS_FUNCTIONEMITTER_H

#include "targets/hls/CppEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <string>

namespace infer::hls {

using llvm::raw_ostream;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::Twine;
using mlir::ArrayAttr;
using mlir::Block;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;
namespace arith = mlir::arith;
namespace scf = mlir::scf;

/// The unsigned type of the same width.
std::string unsignedType(Type type);

/// The unsigned type arithmetic on `type` wraps in without promotion to int.
std::string wrapType(Type type);

/// The bit width of an integer type (index: 32).
unsigned widthOf(Type type);

/// One ARRAY_PARTITION pragma per partitioned dimension of `var`.
void emitPartitionPragmas(raw_ostream &os, StringRef var, ArrayAttr partition,
                          unsigned indent = 1);

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

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_FUNCTIONEMITTER_H
