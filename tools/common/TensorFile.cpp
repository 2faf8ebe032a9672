//===- TensorFile.cpp - tensors from and to .npy and ONNX .pb files -------===//

#include "tools/common/TensorFile.h"

#include "tools/common/Elements.h"

#include "onnx/onnx_pb.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <vector>

namespace infer::tools {

namespace {

std::string readFile(const std::string &path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    throw ToolError(
        fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  std::ostringstream contents;
  contents << stream.rdbuf();
  if (stream.bad()) {
    throw ToolError(fmt::format("cannot read '{}'", path));
  }
  return contents.str();
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

//===-- .npy --------------------------------------------------------------===//

struct NpyType {
  const char *descr;
  infer_dtype_t dtype;
};

constexpr NpyType kNpyTypes[] = {
    {"<f4", INFER_DTYPE_F32}, {"<f8", INFER_DTYPE_F64},
    {"<f2", INFER_DTYPE_F16}, {"|i1", INFER_DTYPE_I8},
    {"|u1", INFER_DTYPE_U8},  {"<i2", INFER_DTYPE_I16},
    {"<u2", INFER_DTYPE_U16}, {"<i4", INFER_DTYPE_I32},
    {"<u4", INFER_DTYPE_U32}, {"<i8", INFER_DTYPE_I64},
    {"<u8", INFER_DTYPE_U64}, {"|b1", INFER_DTYPE_BOOL},
};

infer_dtype_t dtypeFromDescr(std::string descr, const std::string &path) {
  if (!descr.empty() && descr[0] == '>' && descr.size() == 3 &&
      descr[2] != '1') {
    throw ToolError(
        fmt::format("'{}' is big-endian ('{}'); save it little-endian "
                    "(array.astype(array.dtype.newbyteorder('<')))",
                    path, descr));
  }
  // Byte order is meaningless for one-byte types, and '=' is native
  // (little-endian on every host this runs on).
  if (descr.size() == 3 && (descr[0] == '<' || descr[0] == '>' ||
                            descr[0] == '=' || descr[0] == '|')) {
    descr[0] = descr[2] == '1' ? '|' : '<';
  }
  for (const NpyType &type : kNpyTypes) {
    if (descr == type.descr) {
      return type.dtype;
    }
  }
  throw ToolError(fmt::format(
      "'{}' has NumPy dtype '{}', which infer-run does not read", path, descr));
}

/// The value of `key` in the header dict, up to the next ',' or '}' that is
/// not inside parentheses or quotes.
std::string headerValue(const std::string &header, const std::string &key,
                        const std::string &path) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) {
    at = header.find("\"" + key + "\"");
  }
  size_t colon = at == std::string::npos ? at : header.find(':', at);
  if (colon == std::string::npos) {
    throw ToolError(fmt::format(
        "'{}' is not a valid .npy file: no '{}' in its header", path, key));
  }
  size_t begin = header.find_first_not_of(" ", colon + 1);
  if (begin == std::string::npos) {
    throw ToolError(fmt::format(
        "'{}' is not a valid .npy file: '{}' has no value in its header", path,
        key));
  }
  int depth = 0;
  char quote = 0;
  size_t end = begin;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if ((c == ',' || c == '}') && depth == 0) {
      break;
    }
  }
  std::string value = header.substr(begin, end - begin);
  while (!value.empty() && value.back() == ' ') {
    value.pop_back();
  }
  return value;
}

std::vector<int64_t> parseNpyShape(const std::string &text,
                                   const std::string &path) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    throw ToolError(fmt::format("'{}' has a malformed shape '{}' in its header",
                                path, text));
  }
  std::vector<int64_t> shape;
  std::string inner = text.substr(1, text.size() - 2);
  std::istringstream stream(inner);
  std::string item;
  while (std::getline(stream, item, ',')) {
    size_t first = item.find_first_not_of(" L");
    if (first == std::string::npos) {
      continue; // "(4,)": the empty item after the trailing comma
    }
    size_t last = item.find_last_not_of(" L");
    std::string digits = item.substr(first, last - first + 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos ||
        digits.size() > 18) {
      throw ToolError(fmt::format(
          "'{}' has a malformed shape '{}' in its header", path, text));
    }
    shape.push_back(std::stoll(digits));
  }
  return shape;
}

/// The elements of `shape`, or a ToolError naming `path` when a dim is
/// negative or the count overflows; so a header's claim is checked against
/// the file's size before anything is allocated.
uint64_t elementCount(const std::vector<int64_t> &shape,
                      const std::string &path) {
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      throw ToolError(
          fmt::format("'{}' has a negative dimension {}", path, dim));
    }
    if (dim && count > UINT64_MAX / 16 / static_cast<uint64_t>(dim)) {
      throw ToolError(
          fmt::format("'{}' declares a shape too large for any memory", path));
    }
    count *= static_cast<uint64_t>(dim);
  }
  return count;
}

} // namespace

NamedTensor readNpy(const std::string &path) {
  std::string contents = readFile(path);
  static const char kMagic[] = "\x93NUMPY";
  if (contents.size() < 10 || contents.compare(0, 6, kMagic, 6) != 0) {
    throw ToolError(fmt::format("'{}' is not a .npy file (bad magic)", path));
  }
  auto byte = [&](size_t i) {
    return static_cast<size_t>(static_cast<unsigned char>(contents[i]));
  };
  unsigned major = static_cast<unsigned char>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = byte(8) | byte(9) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12) {
      throw ToolError(fmt::format("'{}' is truncated", path));
    }
    headerLength = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    headerStart = 12;
  } else {
    throw ToolError(
        fmt::format("'{}' has .npy format version {}, which is not supported",
                    path, major));
  }
  if (contents.size() < headerStart + headerLength) {
    throw ToolError(fmt::format("'{}' is truncated in its header", path));
  }
  std::string header = contents.substr(headerStart, headerLength);
  std::string descr = headerValue(header, "descr", path);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"')) {
    throw ToolError(fmt::format(
        "'{}' has a structured dtype {}, which is not supported", path, descr));
  }
  infer_dtype_t dtype = dtypeFromDescr(descr.substr(1, descr.size() - 2), path);
  if (headerValue(header, "fortran_order", path) != "False") {
    throw ToolError(
        fmt::format("'{}' is in Fortran order; save a C-ordered array "
                    "(numpy.ascontiguousarray)",
                    path));
  }
  std::vector<int64_t> shape =
      parseNpyShape(headerValue(header, "shape", path), path);
  size_t dataStart = headerStart + headerLength;
  size_t available = contents.size() - dataStart;
  uint64_t needed = elementCount(shape, path) * infer_dtype_size(dtype);
  if (available != needed) {
    throw ToolError(fmt::format(
        "'{}' holds {} bytes of data, but a {} {} array needs {}", path,
        available, infer_dtype_name(dtype),
        formatShape(shape.data(), static_cast<int32_t>(shape.size())), needed));
  }
  Tensor tensor = makeTensor(dtype, shape);
  if (needed) {
    std::memcpy(infer_tensor_data(tensor.get()), contents.data() + dataStart,
                needed);
  }
  return {std::move(tensor), ""};
}

std::string npyDescr(infer_dtype_t dtype) {
  for (const NpyType &type : kNpyTypes) {
    if (type.dtype == dtype) {
      return type.descr;
    }
  }
  return "";
}

void writeNpy(const std::string &path, infer_tensor_t tensor) {
  infer_dtype_t dtype = infer_tensor_dtype(tensor);
  std::string descr = npyDescr(dtype);
  if (dtype == INFER_DTYPE_BF16) {
    fmt::print(stderr,
               "warning: NumPy has no bfloat16; '{}' holds the raw bits as "
               "'<u2' (view them with ml_dtypes.bfloat16)\n",
               path);
    descr = "<u2";
  }
  if (descr.empty()) {
    throw ToolError(
        fmt::format("cannot write {} data as .npy", infer_dtype_name(dtype)));
  }
  std::string shape = "(";
  int32_t rank = infer_tensor_rank(tensor);
  for (int32_t i = 0; i < rank; ++i) {
    shape += fmt::format("{}, ", infer_tensor_shape(tensor)[i]);
  }
  if (rank > 0) {
    shape.pop_back();
    if (rank > 1) {
      shape.pop_back();
    }
  }
  shape += ")";
  std::string header = fmt::format(
      "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
  // Pad so that the data starts on a 64-byte boundary; end with '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xffff) {
    throw ToolError(fmt::format("shape of '{}' is too long for .npy", path));
  }
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  if (!stream) {
    throw ToolError(
        fmt::format("cannot create '{}': {}", path, std::strerror(errno)));
  }
  char preamble[10] = {'\x93',
                       'N',
                       'U',
                       'M',
                       'P',
                       'Y',
                       1,
                       0,
                       static_cast<char>(header.size() & 0xff),
                       static_cast<char>(header.size() >> 8)};
  stream.write(preamble, sizeof(preamble));
  stream.write(header.data(), static_cast<std::streamsize>(header.size()));
  stream.write(static_cast<const char *>(infer_tensor_data(tensor)),
               static_cast<std::streamsize>(infer_tensor_byte_size(tensor)));
  if (!stream.flush()) {
    throw ToolError(fmt::format("cannot write '{}'", path));
  }
}

//===-- ONNX TensorProto --------------------------------------------------===//

namespace {

/// Copies a repeated typed field into the tensor, converting each element.
template <typename Field>
void copyTyped(const Field &field, const char *fieldName, infer_tensor_t tensor,
               const std::string &path) {
  size_t count = infer_tensor_num_elements(tensor);
  if (static_cast<size_t>(field.size()) != count) {
    throw ToolError(fmt::format("'{}' has {} values in {}, but its shape {} "
                                "needs {}",
                                path, field.size(), fieldName,
                                formatShape(tensor), count));
  }
  infer_dtype_t dtype = infer_tensor_dtype(tensor);
  void *data = infer_tensor_data(tensor);
  for (size_t i = 0; i < count; ++i) {
    auto value = field.Get(static_cast<int>(i));
    if constexpr (std::is_floating_point_v<decltype(value)>) {
      setFloatElement(dtype, data, i, value);
    } else {
      // int32_data carries 8/16-bit integers, bools, and the bits of
      // float16/bfloat16 values; setIntegerElement keeps the low bits.
      setIntegerElement(dtype, data, i, static_cast<uint64_t>(value));
    }
  }
}

} // namespace

NamedTensor readTensorProto(const std::string &path) {
  std::string contents = readFile(path);
  onnx::TensorProto proto;
  if (!proto.ParseFromString(contents)) {
    throw ToolError(
        fmt::format("'{}' is not a serialized onnx.TensorProto", path));
  }
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    throw ToolError(fmt::format(
        "'{}' keeps its data in an external file, which is not supported",
        path));
  }
  if (proto.has_segment()) {
    throw ToolError(fmt::format(
        "'{}' is a segment of a tensor, which is not supported", path));
  }
  // ONNX's numbering is the runtime's; a number past the runtime's last
  // type is never cast to the enum (its range ends there).
  infer_dtype_t dtype = INFER_DTYPE_INVALID;
  if (proto.data_type() > 0 && proto.data_type() <= INFER_DTYPE_BF16) {
    dtype = static_cast<infer_dtype_t>(proto.data_type());
  }
  if (infer_dtype_size(dtype) == 0) {
    std::string typeName =
        onnx::TensorProto::DataType_IsValid(proto.data_type())
            ? onnx::TensorProto::DataType_Name(
                  static_cast<onnx::TensorProto::DataType>(proto.data_type()))
            : fmt::format("{}", proto.data_type());
    throw ToolError(
        fmt::format("'{}' holds {} data, which infer-run does not support",
                    path, typeName));
  }
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  // Check what the file holds against what its dims claim before
  // allocating them.
  uint64_t count = elementCount(shape, path);
  uint64_t held = 0;
  if (proto.has_raw_data()) {
    held =
        proto.raw_data().size() / std::max<size_t>(infer_dtype_size(dtype), 1);
  } else {
    switch (dtype) {
    case INFER_DTYPE_F32:
      held = proto.float_data_size();
      break;
    case INFER_DTYPE_F64:
      held = proto.double_data_size();
      break;
    case INFER_DTYPE_I64:
      held = proto.int64_data_size();
      break;
    case INFER_DTYPE_U32:
    case INFER_DTYPE_U64:
      held = proto.uint64_data_size();
      break;
    default:
      held = proto.int32_data_size();
      break;
    }
  }
  if (held < count) {
    throw ToolError(fmt::format(
        "'{}' holds {} values, but its shape {} needs {}", path, held,
        formatShape(shape.data(), static_cast<int32_t>(shape.size())), count));
  }
  Tensor tensor;
  try {
    tensor = makeTensor(dtype, shape);
  } catch (const ToolError &error) {
    throw ToolError(fmt::format("'{}': {}", path, error.what()));
  }
  infer_tensor_t t = tensor.get();
  size_t bytes = infer_tensor_byte_size(t);
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytes) {
      throw ToolError(fmt::format(
          "'{}' has {} bytes of raw_data, but a {} {} tensor needs {}", path,
          proto.raw_data().size(), infer_dtype_name(dtype), formatShape(t),
          bytes));
    }
    if (bytes) {
      std::memcpy(infer_tensor_data(t), proto.raw_data().data(), bytes);
    }
    if (dtype == INFER_DTYPE_BOOL) {
      auto *data = static_cast<uint8_t *>(infer_tensor_data(t));
      for (size_t i = 0; i < bytes; ++i) {
        data[i] = data[i] != 0;
      }
    }
    return {std::move(tensor), proto.name()};
  }
  switch (dtype) {
  case INFER_DTYPE_F32:
    copyTyped(proto.float_data(), "float_data", t, path);
    break;
  case INFER_DTYPE_F64:
    copyTyped(proto.double_data(), "double_data", t, path);
    break;
  case INFER_DTYPE_I64:
    copyTyped(proto.int64_data(), "int64_data", t, path);
    break;
  case INFER_DTYPE_U32:
  case INFER_DTYPE_U64:
    copyTyped(proto.uint64_data(), "uint64_data", t, path);
    break;
  default:
    copyTyped(proto.int32_data(), "int32_data", t, path);
    break;
  }
  return {std::move(tensor), proto.name()};
}

NamedTensor readTensorFile(const std::string &path) {
  if (endsWith(path, ".npy")) {
    return readNpy(path);
  }
  if (endsWith(path, ".pb")) {
    return readTensorProto(path);
  }
  throw ToolError(
      fmt::format("cannot tell the format of '{}': name it .npy (NumPy) or .pb "
                  "(onnx.TensorProto)",
                  path));
}

} // namespace infer::tools
