//===- TypeImport.cpp - ONNX types and tensors -> MLIR --------------------===//

#include "compiler/import/onnx/TypeImport.h"
#include "compiler/import/onnx/ExternalData.h"
#include "dialects/graph/IR/GraphDialect.h"
#include "dialects/graph/IR/TensorLimits.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

namespace infer::onnx_import {

namespace {
// Data types newer than the linked ONNX library's enum.
enum NewDataType {
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUInt4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
};
} // namespace

Type convertElementType(MLIRContext *ctx, int dataType) {
  using TP = onnx::TensorProto;
  switch (dataType) {
  case TP::FLOAT:
    return Float32Type::get(ctx);
  case TP::DOUBLE:
    return Float64Type::get(ctx);
  case TP::FLOAT16:
    return Float16Type::get(ctx);
  case TP::BFLOAT16:
    return BFloat16Type::get(ctx);
  case TP::BOOL:
    return IntegerType::get(ctx, 1);
  case TP::INT8:
    return IntegerType::get(ctx, 8);
  case TP::INT16:
    return IntegerType::get(ctx, 16);
  case TP::INT32:
    return IntegerType::get(ctx, 32);
  case TP::INT64:
    return IntegerType::get(ctx, 64);
  case TP::UINT8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case TP::UINT16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case TP::UINT32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case TP::UINT64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case TP::COMPLEX64:
    return ComplexType::get(Float32Type::get(ctx));
  case TP::COMPLEX128:
    return ComplexType::get(Float64Type::get(ctx));
  case TP::STRING:
    return graph::StringType::get(ctx);
  case kFloat8E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case kFloat8E4M3FNUZ:
    return Float8E4M3FNUZType::get(ctx);
  case kFloat8E5M2:
    return Float8E5M2Type::get(ctx);
  case kFloat8E5M2FNUZ:
    return Float8E5M2FNUZType::get(ctx);
  case kUInt4:
    return IntegerType::get(ctx, 4, IntegerType::Unsigned);
  case kInt4:
    return IntegerType::get(ctx, 4);
  case kFloat4E2M1:
    return Float4E2M1FNType::get(ctx);
  default:
    return nullptr;
  }
}

std::string dataTypeName(int dataType) {
  if (onnx::TensorProto_DataType_IsValid(dataType)) {
    return onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(dataType));
  }
  switch (dataType) {
  case kFloat8E4M3FN:
    return "FLOAT8E4M3FN";
  case kFloat8E4M3FNUZ:
    return "FLOAT8E4M3FNUZ";
  case kFloat8E5M2:
    return "FLOAT8E5M2";
  case kFloat8E5M2FNUZ:
    return "FLOAT8E5M2FNUZ";
  case kUInt4:
    return "UINT4";
  case kInt4:
    return "INT4";
  case kFloat4E2M1:
    return "FLOAT4E2M1";
  default:
    return "data type " + std::to_string(dataType);
  }
}

std::string printableName(const std::string &name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::printEscapedString(name, os);
  return text;
}

bool checkTensorSize(ArrayRef<int64_t> shape, Type element,
                     std::string &error) {
  if (!graph::exceedsTensorLimit(shape, element)) {
    return true;
  }
  std::string dims;
  for (int64_t dim : shape) {
    dims +=
        (dims.empty() ? "" : "x") +
        (ShapedType::isDynamic(dim) ? std::string("?") : std::to_string(dim));
  }
  error = "shape " + (dims.empty() ? std::string("()") : dims) +
          " holds more than 2^48 bytes";
  return false;
}

Type convertType(MLIRContext *ctx, const onnx::TypeProto &type,
                 std::string &error) {
  switch (type.value_case()) {
  case onnx::TypeProto::kTensorType: {
    const auto &tensor = type.tensor_type();
    Type element = convertElementType(ctx, tensor.elem_type());
    if (!element) {
      error =
          "unsupported tensor element type " + dataTypeName(tensor.elem_type());
      return nullptr;
    }
    if (!tensor.has_shape()) {
      return UnrankedTensorType::get(element);
    }
    SmallVector<int64_t> shape;
    for (const auto &dim : tensor.shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() < -1) {
        error = "dimension " + std::to_string(shape.size()) + " is " +
                std::to_string(dim.dim_value()) +
                " (a size must be >= 0; -1 or a name marks a dynamic one)";
        return nullptr;
      }
      shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                          ? dim.dim_value()
                          : ShapedType::kDynamic);
    }
    if (!checkTensorSize(shape, element, error)) {
      return nullptr;
    }
    return RankedTensorType::get(shape, element);
  }
  case onnx::TypeProto::kSequenceType: {
    if (!type.sequence_type().has_elem_type()) {
      error = "sequence type without an element type";
      return nullptr;
    }
    Type element = convertType(ctx, type.sequence_type().elem_type(), error);
    return element ? graph::SequenceType::get(ctx, element) : nullptr;
  }
  case onnx::TypeProto::kOptionalType: {
    if (!type.optional_type().has_elem_type()) {
      error = "optional type without an element type";
      return nullptr;
    }
    Type element = convertType(ctx, type.optional_type().elem_type(), error);
    return element ? graph::OptionalType::get(ctx, element) : nullptr;
  }
  case onnx::TypeProto::kMapType:
    error = "map types are not supported";
    return nullptr;
  case onnx::TypeProto::kSparseTensorType:
    error = "sparse tensor types are not supported";
    return nullptr;
  default:
    error = "the value has no type";
    return nullptr;
  }
}

namespace {

/// Bytes of one element in MLIR's dense storage for the types that are
/// byte-aligned.
int64_t storageBytes(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element)) {
    return 2 * storageBytes(complex.getElementType());
  }
  unsigned bits = element.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : 0;
}

/// The tensor's elements as little-endian bytes in MLIR's layout, from
/// raw_data or the typed repeated fields.
bool collectBytes(const onnx::TensorProto &t, Type element, int64_t count,
                  const std::string &dir, std::string &bytes,
                  std::string &error) {
  using TP = onnx::TensorProto;
  int64_t width = storageBytes(element);
  if (t.data_location() == TP::EXTERNAL) {
    if (!readExternalData(t, dir, count * width, bytes, error)) {
      return false;
    }
  } else if (t.has_raw_data()) {
    bytes = t.raw_data();
  } else {
    // Check the typed field's size before allocating what the dims declare.
    int64_t have = 0;
    switch (t.data_type()) {
    case TP::FLOAT:
    case TP::COMPLEX64:
      have = int64_t(t.float_data_size()) * 4;
      break;
    case TP::DOUBLE:
    case TP::COMPLEX128:
      have = int64_t(t.double_data_size()) * 8;
      break;
    case TP::INT64:
      have = int64_t(t.int64_data_size()) * width;
      break;
    case TP::UINT32:
    case TP::UINT64:
      have = int64_t(t.uint64_data_size()) * width;
      break;
    default:
      have = int64_t(t.int32_data_size()) * width;
      break;
    }
    if (have != count * width) {
      error = "initializer '" + printableName(t.name()) + "' holds " +
              std::to_string(width ? have / width : 0) +
              " values, but its shape needs " + std::to_string(count);
      return false;
    }
    bytes.resize(count * width);
    if (count == 0) {
      return true; // nothing to copy (an empty field's data() may be null)
    }
    char *out = bytes.data();
    auto put = [&](int64_t i, uint64_t value) {
      std::memcpy(out + i * width, &value, width); // little-endian host
    };
    switch (t.data_type()) {
    case TP::FLOAT:
    case TP::COMPLEX64:
      if (t.float_data_size() * 4 != count * width) {
        break;
      }
      std::memcpy(out, t.float_data().data(), count * width);
      return true;
    case TP::DOUBLE:
    case TP::COMPLEX128:
      if (t.double_data_size() * 8 != count * width) {
        break;
      }
      std::memcpy(out, t.double_data().data(), count * width);
      return true;
    case TP::INT64:
      if (t.int64_data_size() != count) {
        break;
      }
      std::memcpy(out, t.int64_data().data(), count * 8);
      return true;
    case TP::UINT32:
    case TP::UINT64:
      if (t.uint64_data_size() != count) {
        break;
      }
      for (int64_t i = 0; i < count; ++i) {
        put(i, t.uint64_data(i));
      }
      return true;
    default:
      // INT32, INT16, INT8, UINT16, UINT8, BOOL, FLOAT16, BFLOAT16, FLOAT8*.
      if (t.int32_data_size() != count) {
        break;
      }
      for (int64_t i = 0; i < count; ++i) {
        put(i, static_cast<uint32_t>(t.int32_data(i)));
      }
      return true;
    }
    error = "initializer '" + printableName(t.name()) +
            "' holds the wrong number of values";
    return false;
  }
  if (static_cast<int64_t>(bytes.size()) != count * width) {
    error = "initializer '" + printableName(t.name()) + "' has " +
            std::to_string(bytes.size()) + " bytes of data, expected " +
            std::to_string(count * width);
    return false;
  }
  return true;
}

} // namespace

ElementsAttr convertTensor(MLIRContext *ctx, const onnx::TensorProto &t,
                           const TensorImportOptions &options,
                           std::string &error) {
  Type element = convertElementType(ctx, t.data_type());
  if (!element) {
    error = "initializer '" + t.name() + "' has unsupported type " +
            dataTypeName(t.data_type());
    return nullptr;
  }
  SmallVector<int64_t> shape;
  for (int64_t d : t.dims()) {
    if (d < 0) {
      error =
          "tensor '" + printableName(t.name()) + "' has a negative dimension";
      return nullptr;
    }
    shape.push_back(d);
  }
  if (!checkTensorSize(shape, element, error)) {
    error = "tensor '" + printableName(t.name()) + "': " + error;
    return nullptr;
  }
  int64_t count = 1;
  for (int64_t d : shape) {
    count *= d;
  }
  auto type = RankedTensorType::get(shape, element);
  if (isa<graph::StringType>(element)) {
    if (t.string_data_size() != count) {
      error = "string tensor '" + t.name() + "' has " +
              std::to_string(t.string_data_size()) + " values, expected " +
              std::to_string(count);
      return nullptr;
    }
    SmallVector<StringRef> values(t.string_data().begin(),
                                  t.string_data().end());
    return DenseStringElementsAttr::get(type, values);
  }
  if (element.isInteger(4) || isa<Float4E2M1FNType>(element)) {
    // Sub-byte types pack two values per byte; unpack them.
    std::string packed;
    if (t.has_raw_data()) {
      packed = t.raw_data();
    } else {
      for (int32_t v : t.int32_data()) {
        packed.push_back(static_cast<char>(v));
      }
    }
    if (static_cast<int64_t>(packed.size()) < (count + 1) / 2) {
      error = "initializer '" + t.name() + "' has too little data";
      return nullptr;
    }
    SmallVector<APInt> values;
    for (int64_t i = 0; i < count; ++i) {
      uint8_t byte = packed[i / 2];
      values.push_back(APInt(4, i % 2 ? byte >> 4 : byte & 0xF));
    }
    if (isa<FloatType>(element)) {
      error = "FLOAT4E2M1 initializers are not supported";
      return nullptr;
    }
    return DenseElementsAttr::get(type, values);
  }
  std::string bytes;
  if (element.isInteger(1)) {
    // Bools are one byte each in ONNX; build them element by element.
    bytes.clear();
    if (t.data_location() != onnx::TensorProto::EXTERNAL && !t.has_raw_data()) {
      if (t.int32_data_size() != count) {
        error =
            "bool tensor '" + t.name() + "' holds the wrong number of values";
        return nullptr;
      }
      SmallVector<bool> values(t.int32_data().begin(), t.int32_data().end());
      return DenseElementsAttr::get(type, values);
    }
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
      if (!readExternalData(t, options.directory, count, bytes, error)) {
        return nullptr;
      }
    } else {
      bytes = t.raw_data();
    }
    if (static_cast<int64_t>(bytes.size()) != count) {
      error = "bool tensor '" + t.name() + "' has the wrong size";
      return nullptr;
    }
    SmallVector<bool> values;
    for (char c : bytes) {
      values.push_back(c != 0);
    }
    return DenseElementsAttr::get(type, values);
  }
  if (!collectBytes(t, element, count, options.directory, bytes, error)) {
    return nullptr;
  }
  ArrayRef<char> raw(bytes.data(), bytes.size());
  if (count <= options.inlineLimit) {
    bool splat = false;
    if (!DenseElementsAttr::isValidRawBuffer(type, raw, splat)) {
      error = "tensor '" + t.name() + "' has malformed data";
      return nullptr;
    }
    return DenseElementsAttr::getFromRawBuffer(type, raw);
  }
  // Large tensors: a resource blob, printed once at the end of the module
  // (or elided), never inline in the IR.
  std::string name = t.name().empty() ? "constant" : t.name();
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      raw, alignof(uint64_t), /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

} // namespace infer::onnx_import
