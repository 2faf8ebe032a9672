//===- NodeChecks.cpp - attribute ranges checked before anything runs -----===//

#include "compiler/import/onnx/NodeChecks.h"
#include "compiler/import/onnx/TypeImport.h"
#include "dialects/graph/IR/TensorLimits.h"

#include <cstring>
#include <initializer_list>
#include <map>
#include <set>

namespace infer::onnx_import {

namespace {

/// Sizes, strides and pads past 2^31 - 1 are in no real model; shape
/// arithmetic with them would overflow 64 bits.
constexpr int64_t kMaxSizeAttr = (int64_t{1} << 31) - 1;

/// Every value of the INT or INTS attribute `name` must lie in [min, max].
struct AttrRule {
  const char *name;
  int64_t min;
  int64_t max = kMaxSizeAttr;
};

struct OpRule {
  const char *opType;
  std::initializer_list<AttrRule> attrs;
};

constexpr AttrRule kKernel = {"kernel_shape", 1};
constexpr AttrRule kStrides = {"strides", 1};
constexpr AttrRule kDilations = {"dilations", 1};
constexpr AttrRule kPads = {"pads", 0};

/// The default-domain ops whose attributes index or divide: a value outside
/// these ranges makes shape inference divide by zero, loop forever or
/// index out of bounds.
const OpRule kRules[] = {
    {"DepthToSpace", {{"blocksize", 1}}},
    {"SpaceToDepth", {{"blocksize", 1}}},
    {"Conv", {kKernel, kStrides, kDilations, kPads, {"group", 1}}},
    {"ConvInteger", {kKernel, kStrides, kDilations, kPads, {"group", 1}}},
    {"QLinearConv", {kKernel, kStrides, kDilations, kPads, {"group", 1}}},
    {"DeformConv",
     {kKernel, kStrides, kDilations, kPads, {"group", 1}, {"offset_group", 1}}},
    {"ConvTranspose",
     {kKernel,
      kStrides,
      kDilations,
      kPads,
      {"group", 1},
      {"output_padding", 0},
      {"output_shape", 0}}},
    {"MaxPool", {kKernel, kStrides, kDilations, kPads}},
    {"AveragePool", {kKernel, kStrides, kDilations, kPads}},
    {"LpPool", {kKernel, kStrides, kDilations, kPads}},
    {"MaxUnpool", {kKernel, kStrides, kPads}},
    {"Col2Im", {kStrides, kDilations, kPads}},
    {"MaxRoiPool", {{"pooled_shape", 1}}},
    {"RoiAlign",
     {{"output_height", 1}, {"output_width", 1}, {"sampling_ratio", 0}}},
    {"LRN", {{"size", 1}}},
    {"LSTM", {{"hidden_size", 1}}},
    {"GRU", {{"hidden_size", 1}}},
    {"RNN", {{"hidden_size", 1}}},
    {"Split", {{"split", 0}, {"num_outputs", 1}}},
    {"TopK", {{"k", 0}}},
    {"ReverseSequence", {{"batch_axis", 0, 1}, {"time_axis", 0, 1}}},
    {"GatherND", {{"batch_dims", 0}}},
    {"TfIdfVectorizer",
     {{"min_gram_length", 1}, {"max_gram_length", 1}, {"max_skip_count", 0}}},
};

/// Ops over N x C x D1... whose libonnx shape inference indexes the spatial
/// dims without checking the rank: their first input needs rank >= 3.
const char *const kSpatialOps[] = {
    "Conv",       "ConvTranspose",     "ConvInteger",   "QLinearConv",
    "MaxPool",    "AveragePool",       "LpPool",        "MaxUnpool",
    "DeformConv", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"};

/// Ranks the graph declares for its values (inputs, value_info,
/// initializers), for checks that libonnx's shape inference skips.
using DeclaredRanks = std::map<std::string, int>;

DeclaredRanks declaredRanks(const onnx::GraphProto &graph) {
  DeclaredRanks ranks;
  for (const auto *list : {&graph.input(), &graph.value_info()}) {
    for (const auto &info : *list) {
      if (info.type().has_tensor_type() &&
          info.type().tensor_type().has_shape()) {
        ranks[info.name()] = info.type().tensor_type().shape().dim_size();
      }
    }
  }
  for (const auto &tensor : graph.initializer()) {
    ranks[tensor.name()] = tensor.dims_size();
  }
  return ranks;
}

std::string nodeName(const onnx::NodeProto &node, int index) {
  return printableName(node.name().empty()
                           ? node.op_type() + "#" + std::to_string(index)
                           : node.name());
}

bool checkNode(const onnx::NodeProto &node, int index,
               const DeclaredRanks &ranks, std::string &error) {
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  for (const char *op : kSpatialOps) {
    if (!defaultDomain || node.op_type() != op || node.input_size() == 0) {
      continue;
    }
    auto rank = ranks.find(node.input(0));
    if (rank != ranks.end() && rank->second < 3) {
      error = "node '" + nodeName(node, index) + "' (" + node.op_type() +
              "): input '" + printableName(node.input(0)) + "' has rank " +
              std::to_string(rank->second) +
              "; it must have rank >= 3 (N x C x D1 ...)";
      return false;
    }
  }
  for (const OpRule &rule : kRules) {
    if (!defaultDomain || node.op_type() != rule.opType) {
      continue;
    }
    for (const auto &attr : node.attribute()) {
      for (const AttrRule &range : rule.attrs) {
        if (attr.name() != range.name) {
          continue;
        }
        auto bad = [&](int64_t value) {
          error = "node '" + nodeName(node, index) + "' (" + node.op_type() +
                  "): attribute '" + attr.name() + "' is " +
                  std::to_string(value) +
                  (value < range.min
                       ? "; it must be at least " + std::to_string(range.min)
                       : "; it must be at most " + std::to_string(range.max));
          return false;
        };
        auto outside = [&](int64_t value) {
          return value < range.min || value > range.max;
        };
        if (attr.type() == onnx::AttributeProto::INT && outside(attr.i())) {
          return bad(attr.i());
        }
        for (int64_t value : attr.ints()) {
          if (outside(value)) {
            return bad(value);
          }
        }
      }
    }
  }
  for (const auto &attr : node.attribute()) {
    if (attr.has_g() && !checkNodeAttributes(attr.g(), error)) {
      return false;
    }
    for (const auto &graph : attr.graphs()) {
      if (!checkNodeAttributes(graph, error)) {
        return false;
      }
    }
  }
  return true;
}

} // namespace

bool checkNodeAttributes(const onnx::GraphProto &graph, std::string &error) {
  DeclaredRanks ranks = declaredRanks(graph);
  for (int i = 0; i < graph.node_size(); ++i) {
    if (!checkNode(graph.node(i), i, ranks, error)) {
      return false;
    }
  }
  return true;
}

ShapeInferenceGuard::ShapeInferenceGuard(onnx::ModelProto &model) {
  hide(*model.mutable_graph());
}

namespace {

google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> &
valueList(onnx::GraphProto &graph, int list) {
  return list == 0   ? *graph.mutable_input()
         : list == 1 ? *graph.mutable_output()
                     : *graph.mutable_value_info();
}

} // namespace

ShapeInferenceGuard::~ShapeInferenceGuard() {
  for (const Hidden &hidden : hidden_) {
    for (const std::string &name : hidden.outputs) {
      hidden.node->add_output(name);
    }
  }
  // Inference replaced the lists' types with its own: find each value by
  // name, and give the dim back its declared value.
  for (const HiddenDim &hidden : hiddenDims_) {
    for (auto &info : valueList(*hidden.graph, hidden.list)) {
      if (info.name() != hidden.name || !info.type().has_tensor_type()) {
        continue;
      }
      auto *shape = info.mutable_type()->mutable_tensor_type()->mutable_shape();
      if (hidden.dim < shape->dim_size()) {
        shape->mutable_dim(hidden.dim)->set_dim_value(hidden.value);
      }
    }
  }
}

void ShapeInferenceGuard::hide(onnx::GraphProto &graph) {
  // 1-d tensors whose length is a result's rank: longer than any model's.
  std::set<std::string> shapeOperands;
  for (const onnx::NodeProto &node : graph.node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    int index = node.op_type() == "ConstantOfShape" ? 0
                : node.op_type() == "Reshape" || node.op_type() == "Expand"
                    ? 1
                    : -1;
    if (defaultDomain && index >= 0 && index < node.input_size()) {
      shapeOperands.insert(node.input(index));
    }
  }
  for (int list = 0; list < 3; ++list) {
    for (auto &info : valueList(graph, list)) {
      if (!info.type().has_tensor_type() ||
          !info.type().tensor_type().has_shape()) {
        continue;
      }
      auto *shape = info.mutable_type()->mutable_tensor_type()->mutable_shape();
      int64_t limit = shape->dim_size() == 1 && shapeOperands.count(info.name())
                          ? graph::kMaxShapeLength
                          : kMaxSizeAttr;
      for (int d = 0; d < shape->dim_size(); ++d) {
        auto *dim = shape->mutable_dim(d);
        if (dim->has_dim_value() && dim->dim_value() > limit) {
          hiddenDims_.push_back(
              {&graph, list, info.name(), d, dim->dim_value()});
          dim->clear_dim_value();
        }
      }
    }
  }
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (defaultDomain && node.op_type() == "LayerNormalization") {
      int64_t axis = -1;
      for (const auto &attr : node.attribute()) {
        if (attr.name() == "axis") {
          axis = attr.i();
        }
      }
      // libonnx sets Mean's dims [axis + rank, rank) without checking the
      // sum whenever the node has more than one output; the graph dialect
      // infers these results itself.
      if (axis < 0 && node.output_size() > 1) {
        Hidden hidden{&node, {node.output().begin() + 1, node.output().end()}};
        node.mutable_output()->DeleteSubrange(1, node.output_size() - 1);
        hidden_.push_back(std::move(hidden));
      }
    }
    for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
      if (attr.has_g()) {
        hide(*attr.mutable_g());
      }
      for (onnx::GraphProto &subgraph : *attr.mutable_graphs()) {
        hide(subgraph);
      }
    }
  }
}

} // namespace infer::onnx_import
