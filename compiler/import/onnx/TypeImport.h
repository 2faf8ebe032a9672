//===- TypeImport.h - ONNX types and tensors -> MLIR ------------*- C++ -*-===//

#ifndef INFER_COMPILER_IMPORT_ONNX_TYPEIMPORT_H
#define INFER_COMPILER_IMPORT_ONNX_TYPEIMPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "onnx/onnx_pb.h"

#include <string>

namespace infer::onnx_import {

/// The MLIR element type of an ONNX `TensorProto::DataType`, or null.
mlir::Type convertElementType(mlir::MLIRContext *context, int dataType);

/// The ONNX spelling of a data type (for messages).
std::string dataTypeName(int dataType);

/// `name` with non-printable bytes (newlines, control characters) and
/// quotes escaped, for one-line messages.
std::string printableName(const std::string &name);

/// False with `error` set when a tensor of `shape` (dynamic dims ignored)
/// and `element` would hold more than 2^48 bytes.
bool checkTensorSize(llvm::ArrayRef<int64_t> shape, mlir::Type element,
                     std::string &error);

/// An ONNX TypeProto as a tensor, `!graph.seq` or `!graph.opt` type; null
/// with `error` set when the type cannot be represented.
mlir::Type convertType(mlir::MLIRContext *context, const onnx::TypeProto &type,
                       std::string &error);

struct TensorImportOptions {
  /// Tensors with more elements become `dense_resource` blobs.
  int64_t inlineLimit = 64;
  /// Directory external data is relative to.
  std::string directory;
};

/// A TensorProto (initializer or attribute) as an ElementsAttr; null with
/// `error` set when its data is missing, short or of an unsupported type.
mlir::ElementsAttr convertTensor(mlir::MLIRContext *context,
                                 const onnx::TensorProto &tensor,
                                 const TensorImportOptions &options,
                                 std::string &error);

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_TYPEIMPORT_H
