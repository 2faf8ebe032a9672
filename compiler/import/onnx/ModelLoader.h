//===- ModelLoader.h - reading and validating ONNX protobufs ----*- C++ -*-===//
//
// The only part of the importer that touches code which throws (protobuf,
// the ONNX checker, ONNX shape inference); it is compiled with exceptions
// and turns every failure into a message.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_IMPORT_ONNX_MODELLOADER_H
#define INFER_COMPILER_IMPORT_ONNX_MODELLOADER_H

#include "onnx/onnx_pb.h"

#include <string>
#include <vector>

namespace infer::onnx_import {

struct LoadedModel {
  onnx::ModelProto model;
  /// Directory of the model file (external data is relative to it).
  std::string directory;
  /// Notes for the user that do not stop the import (e.g. a model newer
  /// than the linked ONNX library).
  std::vector<std::string> warnings;
  /// An op's ONNX inference function refused its inputs, in a model whose
  /// opsets the library knows: the model is invalid. The importer reports
  /// it once every op is known to be importable (an op it cannot import
  /// leaves the ops after it untyped, which this would misreport).
  std::string inferenceError;
};

/// Reads, checks and shape-infers the model at `path`. On failure returns
/// false and sets `error` to a one-line message.
bool loadModel(const std::string &path, bool runChecker, LoadedModel &out,
               std::string &error);

/// The newest default-domain opset and IR version whose semantics the
/// importer implements (those of the onnx 1.23 wheel, whose node tests the
/// suite runs). A model declaring a newer one is refused: its ops may mean
/// something else.
constexpr int kNewestOpset = 28;
constexpr int kNewestIrVersion = 14;

/// Highest default-domain opset and IR version the linked libonnx knows.
int maxKnownOpset();
int maxKnownIrVersion();

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_MODELLOADER_H
