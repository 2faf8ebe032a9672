//===- ExternalData.h - reading initializers stored beside a model -*- C++
//-*-===//
//
// A model's external data is untrusted input: its `location` comes from the
// model file. It may only name a regular file inside the model's folder
// (after symlinks are resolved), and its offset and length must lie inside
// that file. See docs/security.md.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_IMPORT_ONNX_EXTERNALDATA_H
#define INFER_COMPILER_IMPORT_ONNX_EXTERNALDATA_H

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <string>

namespace infer::onnx_import {

/// Reads the bytes of `tensor`'s external data, relative to `directory` (the
/// model's folder), into `bytes`. `expectedBytes` (or -1 when unknown) is the
/// size the tensor's shape needs: a `length` or file range of another size is
/// refused before anything is allocated. Returns false with `error` set when
/// the location is absolute, leaves the folder (`..`, a symlink), is not a
/// regular file, or the range lies outside it.
bool readExternalData(const onnx::TensorProto &tensor,
                      const std::string &directory, int64_t expectedBytes,
                      std::string &bytes, std::string &error);

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_EXTERNALDATA_H
