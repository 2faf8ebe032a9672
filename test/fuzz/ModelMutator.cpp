//===- ModelMutator.cpp - structure-aware mutations of ONNX models --------===//

#include "test/fuzz/ModelMutator.h"

#include "onnx/onnx_pb.h"

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

// libFuzzer's byte-level mutator, for what does not parse as a model.
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace infer::fuzz {
namespace {

using Rng = std::minstd_rand;

size_t pick(Rng &rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

bool chance(Rng &rng, int percent) {
  return static_cast<int>(pick(rng, 100)) < percent;
}

/// Integers that break code written for "reasonable" values.
int64_t interestingInt(Rng &rng) {
  static const int64_t values[] = {0,
                                   1,
                                   -1,
                                   2,
                                   -2,
                                   3,
                                   7,
                                   64,
                                   -64,
                                   255,
                                   65536,
                                   std::numeric_limits<int32_t>::max(),
                                   std::numeric_limits<int32_t>::min(),
                                   int64_t{1} << 32,
                                   int64_t{1} << 40,
                                   -(int64_t{1} << 40),
                                   std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min()};
  if (chance(rng, 30)) {
    return static_cast<int64_t>(pick(rng, 9)) - 4;
  }
  return values[pick(rng, std::size(values))];
}

float interestingFloat(Rng &rng) {
  static const float values[] = {0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 1e-30f,
                                 1e30f,
                                 std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN()};
  return values[pick(rng, std::size(values))];
}

/// Every graph of the model, subgraphs (If/Loop/Scan bodies) included.
void collectGraphs(onnx::GraphProto *graph,
                   std::vector<onnx::GraphProto *> &graphs) {
  graphs.push_back(graph);
  for (auto &node : *graph->mutable_node()) {
    for (auto &attr : *node.mutable_attribute()) {
      if (attr.has_g()) {
        collectGraphs(attr.mutable_g(), graphs);
      }
      for (auto &g : *attr.mutable_graphs()) {
        collectGraphs(&g, graphs);
      }
    }
  }
}

struct Mutator {
  onnx::ModelProto &model;
  Rng &rng;
  std::vector<onnx::GraphProto *> graphs;

  onnx::GraphProto &anyGraph() { return *graphs[pick(rng, graphs.size())]; }

  onnx::NodeProto *anyNode() {
    onnx::GraphProto &graph = anyGraph();
    if (graph.node_size() == 0) {
      return nullptr;
    }
    return graph.mutable_node(static_cast<int>(pick(rng, graph.node_size())));
  }

  /// A name some node or graph uses, or a fresh one.
  std::string anyValueName() {
    onnx::GraphProto &graph = anyGraph();
    std::vector<std::string> names;
    for (const auto &node : graph.node()) {
      names.insert(names.end(), node.output().begin(), node.output().end());
    }
    for (const auto &input : graph.input()) {
      names.push_back(input.name());
    }
    for (const auto &init : graph.initializer()) {
      names.push_back(init.name());
    }
    if (names.empty() || chance(rng, 10)) {
      return chance(rng, 50) ? "" : "no_such_value";
    }
    return names[pick(rng, names.size())];
  }

  void mutateTensorDims(google::protobuf::RepeatedField<int64_t> &dims) {
    int what = static_cast<int>(pick(rng, 3));
    if (what == 0 || dims.empty()) {
      dims.Add(interestingInt(rng));
    } else if (what == 1) {
      dims.Set(static_cast<int>(pick(rng, dims.size())), interestingInt(rng));
    } else {
      dims.RemoveLast();
    }
  }

  void mutateAttribute(onnx::AttributeProto &attr) {
    switch (attr.type()) {
    case onnx::AttributeProto::INT:
      attr.set_i(interestingInt(rng));
      return;
    case onnx::AttributeProto::FLOAT:
      attr.set_f(interestingFloat(rng));
      return;
    case onnx::AttributeProto::INTS:
      if (attr.ints_size() == 0 || chance(rng, 25)) {
        attr.add_ints(interestingInt(rng));
      } else if (chance(rng, 25)) {
        attr.mutable_ints()->RemoveLast();
      } else {
        attr.set_ints(static_cast<int>(pick(rng, attr.ints_size())),
                      interestingInt(rng));
      }
      return;
    case onnx::AttributeProto::FLOATS:
      if (attr.floats_size() == 0 || chance(rng, 30)) {
        attr.add_floats(interestingFloat(rng));
      } else {
        attr.set_floats(static_cast<int>(pick(rng, attr.floats_size())),
                        interestingFloat(rng));
      }
      return;
    case onnx::AttributeProto::STRING: {
      static const char *values[] = {"",       "NOTSET", "SAME_UPPER", "VALID",
                                     "linear", "cubic",  "DCR",        "xyz"};
      attr.set_s(values[pick(rng, std::size(values))]);
      return;
    }
    case onnx::AttributeProto::TENSOR:
      mutateTensor(*attr.mutable_t());
      return;
    default:
      // Change the declared type: the payload then disagrees with it.
      attr.set_type(
          static_cast<onnx::AttributeProto::AttributeType>(pick(rng, 15)));
      return;
    }
  }

  void mutateTensor(onnx::TensorProto &tensor) {
    switch (pick(rng, 5)) {
    case 0:
      mutateTensorDims(*tensor.mutable_dims());
      return;
    case 1:
      tensor.set_data_type(static_cast<int32_t>(pick(rng, 26)));
      return;
    case 2:
      if (!tensor.raw_data().empty()) {
        tensor.mutable_raw_data()->resize(pick(rng, tensor.raw_data().size()));
        return;
      }
      tensor.add_int64_data(interestingInt(rng));
      return;
    case 3:
      tensor.clear_float_data();
      tensor.clear_int64_data();
      tensor.clear_int32_data();
      tensor.clear_raw_data();
      return;
    default:
      // External data the loader must confine to the model's folder.
      tensor.set_data_location(onnx::TensorProto::EXTERNAL);
      auto *entry = tensor.add_external_data();
      entry->set_key(chance(rng, 50) ? "location" : "length");
      static const char *values[] = {"../x.bin", "/etc/hostname", "a.bin",
                                     "18446744073709551615", "-1"};
      entry->set_value(values[pick(rng, std::size(values))]);
      return;
    }
  }

  void mutateShape(onnx::TypeProto &type) {
    if (!type.has_tensor_type()) {
      type.mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
      return;
    }
    auto *tensorType = type.mutable_tensor_type();
    if (chance(rng, 20)) {
      tensorType->set_elem_type(static_cast<int32_t>(pick(rng, 26)));
      return;
    }
    auto *shape = tensorType->mutable_shape();
    int what = static_cast<int>(pick(rng, 4));
    if (what == 0 || shape->dim_size() == 0) {
      shape->add_dim()->set_dim_value(interestingInt(rng));
    } else if (what == 1) {
      shape->mutable_dim()->RemoveLast();
    } else if (what == 2) {
      shape->mutable_dim(static_cast<int>(pick(rng, shape->dim_size())))
          ->set_dim_param("N");
    } else {
      shape->mutable_dim(static_cast<int>(pick(rng, shape->dim_size())))
          ->set_dim_value(interestingInt(rng));
    }
  }

  void editAttribute() {
    onnx::NodeProto *node = anyNode();
    if (!node) {
      return;
    }
    if (node->attribute_size() > 0 && chance(rng, 80)) {
      mutateAttribute(*node->mutable_attribute(
          static_cast<int>(pick(rng, node->attribute_size()))));
      return;
    }
    // An attribute the op may or may not know.
    static const char *ints[] = {"axis", "group", "blocksize", "keepdims",
                                 "to",   "mode",  "direction", "hidden_size"};
    static const char *lists[] = {
        "axes",      "perm",  "kernel_shape", "strides",        "pads",
        "dilations", "split", "starts",       "output_padding", "output_shape"};
    auto *attr = node->add_attribute();
    if (chance(rng, 50)) {
      attr->set_name(ints[pick(rng, std::size(ints))]);
      attr->set_type(onnx::AttributeProto::INT);
      attr->set_i(interestingInt(rng));
    } else {
      attr->set_name(lists[pick(rng, std::size(lists))]);
      attr->set_type(onnx::AttributeProto::INTS);
      for (size_t i = 0, e = pick(rng, 5); i < e; ++i) {
        attr->add_ints(interestingInt(rng));
      }
    }
  }

  void editValueType() {
    onnx::GraphProto &graph = anyGraph();
    std::vector<onnx::ValueInfoProto *> infos;
    for (auto &v : *graph.mutable_input()) {
      infos.push_back(&v);
    }
    for (auto &v : *graph.mutable_output()) {
      infos.push_back(&v);
    }
    for (auto &v : *graph.mutable_value_info()) {
      infos.push_back(&v);
    }
    if (!infos.empty()) {
      mutateShape(*infos[pick(rng, infos.size())]->mutable_type());
    }
  }

  void editInitializer() {
    onnx::GraphProto &graph = anyGraph();
    if (graph.initializer_size() > 0) {
      mutateTensor(*graph.mutable_initializer(
          static_cast<int>(pick(rng, graph.initializer_size()))));
    }
  }

  void rewire() {
    onnx::NodeProto *node = anyNode();
    if (!node) {
      return;
    }
    int what = static_cast<int>(pick(rng, 4));
    if (what == 0 && node->input_size() > 0) {
      node->set_input(static_cast<int>(pick(rng, node->input_size())),
                      anyValueName());
    } else if (what == 1 && node->input_size() > 0) {
      node->mutable_input()->RemoveLast();
    } else if (what == 2) {
      node->add_input(anyValueName());
    } else if (node->output_size() > 0) {
      node->set_output(static_cast<int>(pick(rng, node->output_size())),
                       chance(rng, 50) ? anyValueName() : "");
    }
  }

  void swapOpType() {
    onnx::NodeProto *node = anyNode();
    onnx::NodeProto *other = anyNode();
    if (node && other) {
      node->set_op_type(other->op_type());
    }
  }

  void editGraphStructure() {
    onnx::GraphProto &graph = anyGraph();
    switch (pick(rng, 4)) {
    case 0:
      if (graph.node_size() > 0) {
        graph.mutable_node()->DeleteSubrange(
            static_cast<int>(pick(rng, graph.node_size())), 1);
      }
      return;
    case 1:
      if (graph.node_size() > 0) {
        *graph.add_node() =
            graph.node(static_cast<int>(pick(rng, graph.node_size())));
      }
      return;
    case 2:
      if (graph.input_size() > 0) {
        graph.mutable_input()->DeleteSubrange(
            static_cast<int>(pick(rng, graph.input_size())), 1);
      }
      return;
    default:
      if (graph.output_size() > 0) {
        graph.mutable_output()->DeleteSubrange(
            static_cast<int>(pick(rng, graph.output_size())), 1);
      }
      return;
    }
  }

  void editVersions() {
    if (chance(rng, 30)) {
      model.set_ir_version(static_cast<int64_t>(pick(rng, 16)));
      return;
    }
    if (model.opset_import_size() == 0) {
      model.add_opset_import()->set_version(
          static_cast<int64_t>(pick(rng, 30)));
      return;
    }
    model
        .mutable_opset_import(
            static_cast<int>(pick(rng, model.opset_import_size())))
        ->set_version(static_cast<int64_t>(pick(rng, 30)));
  }

  void mutateOnce() {
    switch (pick(rng, 10)) {
    case 0:
    case 1:
    case 2:
      return editAttribute();
    case 3:
    case 4:
      return editValueType();
    case 5:
      return editInitializer();
    case 6:
      return rewire();
    case 7:
      return swapOpType();
    case 8:
      return editGraphStructure();
    default:
      return editVersions();
    }
  }
};

} // namespace

size_t mutateModel(uint8_t *data, size_t size, size_t maxSize,
                   unsigned int seed) {
  Rng rng(seed);
  onnx::ModelProto model;
  if (chance(rng, 15) || !model.ParseFromArray(data, static_cast<int>(size)) ||
      !model.has_graph()) {
    return LLVMFuzzerMutate(data, size, maxSize);
  }
  Mutator mutator{model, rng, {}};
  for (size_t i = 0, e = 1 + pick(rng, 3); i < e; ++i) {
    // Collected again each time: an edit may delete a subgraph.
    mutator.graphs.clear();
    collectGraphs(model.mutable_graph(), mutator.graphs);
    mutator.mutateOnce();
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize) {
    return LLVMFuzzerMutate(data, size, maxSize);
  }
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

} // namespace infer::fuzz
