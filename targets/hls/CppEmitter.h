//===- CppEmitter.h - prepared loops on memrefs -> HLS C++ ------*- C++ -*-===//
//
// Prints a module that infer-hls-prepare-for-emission accepted as Vitis-style
// HLS C++: one `static void` function per layer (`INLINE off`, a comment
// naming its ONNX nodes, labelled loops with their PIPELINE/UNROLL
// directives, ARRAY_PARTITION on the arrays) and the top function with its
// AXI interfaces. Only standard C++17 and <cstdint>/<cmath>: plain g++
// compiles the result, which is how C simulation runs here.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_CPPEMITTER_H
#define INFER_TARGETS_HLS_CPPEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace infer::hls {

/// How the top function's ports appear in C++.
struct PortInfo {
  std::string name;     // C identifier
  std::string onnxName; // for comments
  std::string cType;    // may differ in signedness from the IR's type
  bool isOutput = false;
};

/// True when the emitter has a C++ spelling for `op` (operands and result
/// types checked too).
bool canEmit(mlir::Operation *op);

/// The C++ type of a scalar element type ("" when there is none). IR
/// integers are signless: they print as signed types.
std::string cType(mlir::Type type);

/// Whether `type` (a scalar, or a static identity-layout memref of one) has
/// a C++ spelling.
bool emittableType(mlir::Type type);

/// `T name[d0][d1]...` for a memref of `type` (a 0-d one as `[1]`).
std::string arrayDeclarator(mlir::MemRefType type, llvm::StringRef name);

/// An exact C++ literal of a float of `type` (f32 or f64; NaN and the
/// infinities through std::numeric_limits).
std::string floatLiteral(const llvm::APFloat &value, mlir::Type type);

/// A C++ literal of an integer of `type` (bool, index or iN; the most
/// negative values spelled so no literal overflows).
std::string intLiteral(const llvm::APInt &value, mlir::Type type);

/// A C identifier for each memref.global of `module`, prefixed `prefix_`.
std::map<std::string, std::string> weightNames(mlir::ModuleOp module,
                                               llvm::StringRef prefix);

/// Writes the weights header body: one `static const` array per global.
llvm::LogicalResult emitWeights(mlir::ModuleOp module,
                                const std::map<std::string, std::string> &names,
                                llvm::raw_ostream &os);

/// Writes every function: layers (static) first, then the top function
/// `topName` with `ports` in argument order. With `profile`, each layer
/// call is wrapped in INFER_LAYER_BEGIN/END(k) (ProfileEmitter.h).
llvm::LogicalResult
emitFunctions(mlir::ModuleOp module, llvm::StringRef topName,
              const std::vector<PortInfo> &ports,
              const std::map<std::string, std::string> &weights,
              llvm::raw_ostream &os, bool profile = false);

/// The declaration of the top function (no trailing ';').
std::string topDeclaration(mlir::ModuleOp module, llvm::StringRef topName,
                           const std::vector<PortInfo> &ports);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_CPPEMITTER_H
