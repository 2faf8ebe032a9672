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
/// dims with unchecked attribute values and loops or allocates in
/// proportion to dim values. While the guard lives:
/// - outputs whose inference indexes out of range (LayerNormalization's
///   Mean and InvStdDev with a negative axis) are removed;
/// - declared dims past 2^31 - 1 read as unknown (libonnx makes a result of
///   that rank from a 1-d shape operand of that length, and steps a SAME
///   pad's residual through a spatial dim one stride at a time).
/// Its destructor restores both, after the inferred types were merged in;
/// the graph dialect's verifiers and shape inference then judge them.
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
  /// A declared dim made unknown: the graph, which list (0: inputs,
  /// 1: outputs, 2: value_info), the value's name, the dim and its value.
  struct HiddenDim {
    onnx::GraphProto *graph;
    int list;
    std::string name;
    int dim;
    int64_t value;
  };
  void hide(onnx::GraphProto &graph);
  std::vector<Hidden> hidden_;
  std::vector<HiddenDim> hiddenDims_;
};

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_NODECHECKS_H
