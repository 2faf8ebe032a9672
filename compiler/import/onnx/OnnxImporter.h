//===- OnnxImporter.h - ONNX model -> graph dialect -------------*- C++ -*-===//
//
// The front door of the compiler: reads an ONNX model (binary protobuf, or
// ONNX's textual syntax for `.onnxtxt` files), validates it with libonnx's
// checker and shape inference, and builds a module holding one `func.func`
// of `graph` ops. Errors are reported through the MLIRContext's diagnostic
// engine; the importer never throws, asserts or aborts on a user's file.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H
#define INFER_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace infer {

struct OnnxImportOptions {
  /// Name of the entry function.
  std::string functionName = "main";
  /// Initializers with more elements than this become `dense_resource`
  /// blobs instead of inline `dense` literals.
  int64_t inlineConstantLimit = 64;
  /// Run `onnx::checker` (skipped automatically, with a warning, for models
  /// newer than the linked ONNX library).
  bool runChecker = true;
};

/// Imports the model at `path`. Returns null after emitting diagnostics when
/// the model cannot be read or imported.
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxModel(mlir::MLIRContext &context, llvm::StringRef path,
                const OnnxImportOptions &options = {});

/// The graph dialect op name for an ONNX op type: the type in snake_case
/// (`MatMul` -> `graph.mat_mul`, `LRN` -> `graph.lrn`).
std::string graphOpNameForOnnx(llvm::StringRef onnxOpType);

} // namespace infer

#endif // INFER_COMPILER_IMPORT_ONNX_ONNXIMPORTER_H
