//===- TensorFile.h - tensors from and to .npy and ONNX .pb files -*- C++
//-*-===//
//
// Reads NumPy .npy files (format 1.0/2.0/3.0, little-endian, C order) and
// serialized onnx::TensorProto files (data in raw_data or in the typed
// fields), and writes .npy files. Every failure is a ToolError naming the
// file.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_TENSORFILE_H
#define INFER_TOOLS_COMMON_TENSORFILE_H

#include "tools/common/RuntimeHandles.h"

#include <string>

namespace infer::tools {

/// A tensor read from a file, with the name stored in it (TensorProto only;
/// empty for .npy).
struct NamedTensor {
  Tensor tensor;
  std::string name;
};

/// Reads a NumPy .npy file.
NamedTensor readNpy(const std::string &path);

/// Reads a serialized onnx::TensorProto.
NamedTensor readTensorProto(const std::string &path);

/// Reads `path` by its extension: .npy or .pb.
NamedTensor readTensorFile(const std::string &path);

/// Writes `tensor` as a .npy file (format 1.0). bfloat16, which NumPy cannot
/// describe, is written as its raw bits with dtype '<u2' (and a warning).
void writeNpy(const std::string &path, infer_tensor_t tensor);

/// The NumPy dtype string for `dtype` ("<f4", "|b1", ...); empty when NumPy
/// has none.
std::string npyDescr(infer_dtype_t dtype);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_TENSORFILE_H
