//===- NodeChecks.h - attribute ranges checked before anything runs -*- C++
//-*-===//
//
// A model file is untrusted input. Before libonnx's checker and shape
// inference see it (they index with attribute values and can crash on
// hostile ones), and before any graph op is built, every node's attributes
// whose valid range does not depend on shapes are checked here: block
// sizes, kernel sizes, strides and dilations at least 1, pads at least 0,
// hidden sizes at least 1. Shape-dependent ranges (an axis against a rank)
// are checked by the graph ops' verifiers once ranks are known.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_IMPORT_ONNX_NODECHECKS_H
#define INFER_COMPILER_IMPORT_ONNX_NODECHECKS_H

#include "onnx/onnx_pb.h"

#include <string>
#include <vector>

namespace infer::onnx_import {

/// False with `error` naming the node, its op type and the attribute when a
/// node of `graph` (or of a subgraph) has an attribute outside its range.
bool checkNodeAttributes(const onnx::GraphProto &graph, std::string &error);

/// Makes `model` safe to hand to libonnx's shape inference, which indexes
/// dims with unchecked attribute values: outputs whose inference does so
/// (LayerNormalization's Mean and InvStdDev with a negative axis) are
/// hidden from it while the guard lives; its destructor restores them.
class ShapeInferenceGuard {
public:
  explicit ShapeInferenceGuard(onnx::ModelProto &model);
  ~ShapeInferenceGuard();

private:
  /// A node whose trailing outputs were removed, and their names.
  struct Hidden {
    onnx::NodeProto *node;
    std::vector<std::string> outputs;
  };
  void hide(onnx::GraphProto &graph);
  std::vector<Hidden> hidden_;
};

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_NODECHECKS_H
