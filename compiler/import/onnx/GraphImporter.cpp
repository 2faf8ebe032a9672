//===- GraphImporter.cpp - ONNX GraphProto -> graph ops -------------------===//

#include "compiler/import/onnx/GraphImporter.h"
#include "compiler/import/onnx/ModelLoader.h"
#include "compiler/import/onnx/OnnxImporter.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "onnx/defs/schema.h"

#include <set>

using namespace mlir;

namespace infer::onnx_import {

namespace {

/// Attribute names whose INT value is an ONNX data type.
bool isDataTypeAttribute(StringRef name) {
  return name == "to" || name == "dtype" || name == "output_datatype";
}

/// Region attribute names in the order the graph ops declare their regions.
int regionOrder(StringRef name) {
  if (name == "then_branch") {
    return 0;
  }
  if (name == "else_branch") {
    return 1;
  }
  return 2; // body
}

std::optional<int> fixedOperandCount(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::ZeroOperands>()) {
    return 0;
  }
  if (name.hasTrait<OpTrait::OneOperand>()) {
    return 1;
  }
#define INFER_N_OPERANDS(N)                                                    \
  if (name.hasTrait<OpTrait::NOperands<N>::Impl>()) {                          \
    return N;                                                                  \
  }
  INFER_N_OPERANDS(2)
  INFER_N_OPERANDS(3)
  INFER_N_OPERANDS(4)
  INFER_N_OPERANDS(5)
  INFER_N_OPERANDS(6)
  INFER_N_OPERANDS(7)
  INFER_N_OPERANDS(8)
  INFER_N_OPERANDS(9)
#undef INFER_N_OPERANDS
  return std::nullopt;
}

std::optional<int> fixedResultCount(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::ZeroResults>()) {
    return 0;
  }
  if (name.hasTrait<OpTrait::OneResult>()) {
    return 1;
  }
#define INFER_N_RESULTS(N)                                                     \
  if (name.hasTrait<OpTrait::NResults<N>::Impl>()) {                           \
    return N;                                                                  \
  }
  INFER_N_RESULTS(2)
  INFER_N_RESULTS(3)
  INFER_N_RESULTS(4)
#undef INFER_N_RESULTS
  return std::nullopt;
}

} // namespace

GraphImporter::GraphImporter(MLIRContext *context,
                             const onnx::ModelProto &model,
                             TensorImportOptions tensorOptions,
                             std::string modelName)
    : context_(context), model_(model),
      tensorOptions_(std::move(tensorOptions)),
      modelName_(std::move(modelName)), builder_(context) {
  for (const auto &opset : model.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    opsets_[domain] = static_cast<int>(opset.version());
  }
}

int GraphImporter::opsetFor(const std::string &domain) const {
  auto it = opsets_.find(domain == "ai.onnx" ? "" : domain);
  return it == opsets_.end() ? 0 : it->second;
}

Location GraphImporter::nodeLoc(const onnx::NodeProto &node, int index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "#" + std::to_string(index)
                         : node.name();
  return NameLoc::get(StringAttr::get(context_, name),
                      NameLoc::get(StringAttr::get(context_, node.op_type())));
}

void GraphImporter::collectValueTypes(const onnx::GraphProto &graph) {
  for (const auto &list :
       {&graph.input(), &graph.output(), &graph.value_info()}) {
    for (const auto &info : *list) {
      if (info.has_type()) {
        valueTypes_[info.name()] = &info.type();
      }
    }
  }
}

void GraphImporter::collectReadNames(const onnx::GraphProto &graph) {
  for (const auto &output : graph.output()) {
    readNames_.insert(output.name());
  }
  for (const auto &node : graph.node()) {
    readNames_.insert(node.input().begin(), node.input().end());
    for (const auto &attr : node.attribute()) {
      if (attr.has_g()) {
        collectReadNames(attr.g());
      }
      for (const auto &sub : attr.graphs()) {
        collectReadNames(sub);
      }
    }
  }
}

Value GraphImporter::none() {
  Block *block = builder_.getInsertionBlock();
  auto it = noneValues_.find(block);
  if (it != noneValues_.end()) {
    return it->second;
  }
  OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(block);
  Value value = graph::NoneOp::create(builder_, builder_.getUnknownLoc(),
                                      builder_.getNoneType());
  noneValues_[block] = value;
  return value;
}

Value GraphImporter::i64Constant(Location loc, ArrayRef<int64_t> values,
                                 bool scalar) {
  auto type = RankedTensorType::get(
      scalar ? ArrayRef<int64_t>{} : ArrayRef<int64_t>{(int64_t)values.size()},
      builder_.getI64Type());
  return graph::ConstantOp::create(builder_, loc,
                                   DenseElementsAttr::get(type, values));
}

Value GraphImporter::scalarConstant(Location loc, Type elementType,
                                    double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute element;
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    element = FloatAttr::get(floatType, value);
  } else {
    element = IntegerAttr::get(elementType, static_cast<int64_t>(value));
  }
  return graph::ConstantOp::create(builder_, loc,
                                   DenseElementsAttr::get(type, element));
}

Value GraphImporter::lookup(const std::string &name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end()) {
      return found->second;
    }
  }
  return nullptr;
}

LogicalResult GraphImporter::importInitializers(const onnx::GraphProto &graph) {
  for (const auto &tensor : graph.initializer()) {
    std::string error;
    ElementsAttr value = convertTensor(context_, tensor, tensorOptions_, error);
    if (!value) {
      return emitError(FileLineColLoc::get(context_, modelName_, 0, 0))
             << error;
    }
    Location loc = NameLoc::get(StringAttr::get(context_, tensor.name()));
    scopes_.back()[tensor.name()] =
        graph::ConstantOp::create(builder_, loc, value);
  }
  return success();
}

LogicalResult GraphImporter::importMainGraph(ModuleOp module,
                                             StringRef functionName) {
  const onnx::GraphProto &graph = model_.graph();
  Location modelLoc = FileLineColLoc::get(context_, modelName_, 0, 0);
  collectValueTypes(graph);
  collectReadNames(graph);
  std::set<std::string> initializers;
  for (const auto &tensor : graph.initializer()) {
    initializers.insert(tensor.name());
  }
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  for (const auto &input : graph.input()) {
    if (initializers.count(input.name())) {
      continue; // IR < 4 lists initializers as inputs too.
    }
    std::string error;
    Type type = convertType(context_, input.type(), error);
    if (!type) {
      return emitError(modelLoc)
             << "graph input '" << printableName(input.name())
             << "': " << error;
    }
    argTypes.push_back(type);
    argNames.push_back(input.name());
  }

  builder_.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(builder_, modelLoc, functionName,
                                 builder_.getFunctionType(argTypes, {}));
  Block *entry = fn.addEntryBlock();
  builder_.setInsertionPointToStart(entry);
  scopes_.emplace_back();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    scopes_.back()[name] = entry->getArgument(i);
    fn.setArgAttr(i, "graph.name", builder_.getStringAttr(name));
  }
  if (failed(importInitializers(graph)) || failed(importNodes(graph))) {
    return failure();
  }
  if (!unsupported_.empty()) {
    InFlightDiagnostic diag = emitError(modelLoc);
    diag << "the model uses " << unsupported_.size()
         << " operator(s) that infer cannot import:";
    for (const auto &[key, info] : unsupported_) {
      diag << "\n  " << printableName(key.first) << " (opset " << key.second
           << "), first at node '" << info.firstNode << "'";
      if (info.count > 1) {
        diag << " (" << info.count << " nodes)";
      }
    }
    return failure();
  }
  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    Value value = lookup(output.name());
    if (!value) {
      return emitError(modelLoc)
             << "graph output '" << printableName(output.name())
             << "' is not produced by any node";
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder_, modelLoc, results);
  fn.setType(
      builder_.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output())) {
    fn.setResultAttr(i, "graph.name", builder_.getStringAttr(output.name()));
  }
  scopes_.pop_back();
  return success();
}

LogicalResult GraphImporter::importNodes(const onnx::GraphProto &graph) {
  for (int i = 0; i < graph.node_size(); ++i) {
    if (failed(importNode(graph.node(i), i))) {
      return failure();
    }
  }
  return success();
}

LogicalResult GraphImporter::convertAttributes(NodeState &state,
                                               const onnx::OpSchema *schema) {
  const onnx::NodeProto &node = *state.node;
  auto convert = [&](const onnx::AttributeProto &attr,
                     std::string &error) -> Attribute {
    const std::string &name = attr.name();
    switch (attr.type()) {
    case onnx::AttributeProto::FLOAT:
      return builder_.getF32FloatAttr(attr.f());
    case onnx::AttributeProto::INT:
      if (isDataTypeAttribute(name)) {
        Type type = convertElementType(context_, static_cast<int>(attr.i()));
        if (!type) {
          error = "data type " + std::to_string(attr.i()) + " is not supported";
          return nullptr;
        }
        return TypeAttr::get(type);
      }
      return builder_.getI64IntegerAttr(attr.i());
    case onnx::AttributeProto::STRING:
      if (isDataTypeAttribute(name)) { // Cast-1 spells `to` as a string.
        onnx::TensorProto_DataType dataType;
        Type type;
        if (onnx::TensorProto_DataType_Parse(attr.s(), &dataType)) {
          type = convertElementType(context_, dataType);
        }
        if (!type) {
          error = "data type '" + attr.s() + "' is not supported";
          return nullptr;
        }
        return TypeAttr::get(type);
      }
      return builder_.getStringAttr(attr.s());
    case onnx::AttributeProto::TENSOR:
      return convertTensor(context_, attr.t(), tensorOptions_, error);
    case onnx::AttributeProto::FLOATS:
      return builder_.getDenseF32ArrayAttr(
          SmallVector<float>(attr.floats().begin(), attr.floats().end()));
    case onnx::AttributeProto::INTS:
      return builder_.getDenseI64ArrayAttr(
          SmallVector<int64_t>(attr.ints().begin(), attr.ints().end()));
    case onnx::AttributeProto::STRINGS:
      return builder_.getStrArrayAttr(
          SmallVector<StringRef>(attr.strings().begin(), attr.strings().end()));
    case onnx::AttributeProto::TYPE_PROTO: {
      Type type = convertType(context_, attr.tp(), error);
      return type ? TypeAttr::get(type) : Attribute();
    }
    default:
      error = "attribute kind " +
              onnx::AttributeProto_AttributeType_Name(attr.type()) +
              " is not supported";
      return nullptr;
    }
  };
  for (const auto &attr : node.attribute()) {
    if (attr.type() == onnx::AttributeProto::GRAPH) {
      continue; // Becomes a region.
    }
    if (!attr.ref_attr_name().empty()) {
      return emitError(state.loc) << "attribute '" << attr.name()
                                  << "' refers to a function attribute";
    }
    std::string error;
    Attribute value = convert(attr, error);
    if (!value) {
      return emitError(state.loc) << "attribute '" << attr.name() << "' of "
                                  << node.op_type() << ": " << error;
    }
    state.attributes.set(attr.name(), value);
  }
  // Defaults come from the schema of the node's opset. For opsets newer
  // than the ONNX library knows, that schema may be outdated; the graph
  // ops' own defaults (the newest opset's) apply instead.
  if (schema && state.opsetVersion <= maxKnownOpset()) {
    for (const auto &[name, formal] : schema->attributes()) {
      if (state.attributes.get(name) ||
          formal.default_value.type() == onnx::AttributeProto::UNDEFINED) {
        continue;
      }
      onnx::AttributeProto defaultValue = formal.default_value;
      defaultValue.set_name(name);
      std::string error;
      Attribute value = convert(defaultValue, error);
      if (!value) {
        return emitError(state.loc)
               << "default of attribute '" << name << "' of " << node.op_type()
               << ": " << error;
      }
      state.attributes.set(name, value);
    }
  }
  return success();
}

Type GraphImporter::resultType(const std::string &name, NodeState &state,
                               const onnx::OpSchema *schema, size_t index) {
  auto it = valueTypes_.find(name);
  if (it != valueTypes_.end()) {
    std::string error;
    if (Type type = convertType(context_, *it->second, error)) {
      return type;
    }
  }
  // No usable annotation (newer opsets than the ONNX library knows, or
  // inference failed): the element type follows the schema's type
  // constraint, the shape is left to graph shape propagation.
  if (auto to = attrAs<TypeAttr>(state.attributes, "to")) {
    return UnrankedTensorType::get(to.getValue());
  }
  auto elementOf = [](Value v) -> Type {
    auto tensor = v ? dyn_cast<TensorType>(v.getType()) : nullptr;
    return tensor ? tensor.getElementType() : Type();
  };
  if (schema && index < schema->outputs().size()) {
    const std::string &typeStr = schema->outputs()[index].GetTypeStr();
    const auto &inputs = schema->inputs();
    for (size_t i = 0; i < inputs.size() && i < state.operands.size(); ++i) {
      if (inputs[i].GetTypeStr() == typeStr) {
        if (Type element = elementOf(state.operands[i])) {
          return UnrankedTensorType::get(element);
        }
      }
    }
    if (typeStr == "tensor(bool)") {
      return UnrankedTensorType::get(builder_.getI1Type());
    }
    if (typeStr == "tensor(int64)" || typeStr == "I") {
      return UnrankedTensorType::get(builder_.getI64Type());
    }
  }
  if (!state.operands.empty()) {
    if (Type element = elementOf(state.operands[0])) {
      return UnrankedTensorType::get(element);
    }
  }
  emitError(state.loc) << "cannot determine the type of output '"
                       << printableName(name)
                       << "': the model does not annotate it";
  return nullptr;
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        int index) {
  Location loc = nodeLoc(node, index);
  std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  int version = opsetFor(domain);
  std::string nodeName = node.name().empty()
                             ? node.op_type() + "#" + std::to_string(index)
                             : node.name();
  auto poison = [&]() {
    for (const auto &output : node.output()) {
      if (!output.empty()) {
        scopes_.back()[output] = nullptr;
      }
    }
  };
  auto markUnsupported = [&](const std::string &what) {
    auto &entry = unsupported_[{what, version}];
    if (entry.count++ == 0) {
      entry.firstNode = printableName(nodeName);
    }
    poison();
    return success();
  };

  NodeState state{&node, version, graphOpNameForOnnx(node.op_type()),
                  {},    {},      loc};
  // Ops the graph dialect lacks are reported even when their inputs come
  // from other unsupported ops.
  bool knownOp = domain.empty() &&
                 (RegisteredOperationName::lookup(state.opName, context_) ||
                  node.op_type() == "Upsample" || node.op_type() == "Scatter");
  // Operands; a value poisoned by an unsupported producer silently
  // poisons this node too (the producer is already reported).
  for (const auto &input : node.input()) {
    if (input.empty()) {
      state.operands.push_back(none());
      continue;
    }
    bool known = false;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto found = it->find(input);
      if (found != it->end()) {
        known = true;
        if (!found->second) {
          if (!knownOp) {
            return markUnsupported(domain.empty()
                                       ? node.op_type()
                                       : domain + "." + node.op_type());
          }
          poison();
          return success();
        }
        state.operands.push_back(found->second);
        break;
      }
    }
    if (!known) {
      // The location names the node and its op type.
      return emitError(loc) << "uses '" << printableName(input)
                            << "', which no node, graph input or initializer "
                               "defines";
    }
  }

  if (!domain.empty()) {
    const auto &known =
        onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    if (!known.count(domain)) {
      return markUnsupported(domain + "." + node.op_type() +
                             " (unknown domain '" + domain + "')");
    }
    return markUnsupported(domain + "." + node.op_type());
  }
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), version, domain);
  if (schema && schema->Deprecated() && node.op_type() != "Upsample" &&
      node.op_type() != "Scatter") {
    return markUnsupported(node.op_type());
  }
  // The checker counts inputs and outputs, but it is skipped for models
  // newer than libonnx and with --no-checker; the upgrade hooks and the ops
  // rely on the counts. A schema is only the op's at this opset when libonnx
  // knows the opset (later opsets make required inputs optional, as
  // OptionalHasElement-18 did).
  bool current = schema && version <= maxKnownOpset();
  if (current && (node.input_size() < schema->min_input() ||
                  node.input_size() > schema->max_input())) {
    return emitError(loc) << "takes " << schema->min_input() << " to "
                          << schema->max_input() << " inputs at opset "
                          << version << ", got " << node.input_size();
  }
  if (current && (node.output_size() < schema->min_output() ||
                  node.output_size() > schema->max_output())) {
    return emitError(loc) << "has " << schema->min_output() << " to "
                          << schema->max_output() << " outputs at opset "
                          << version << ", got " << node.output_size();
  }
  if (failed(convertAttributes(state, schema))) {
    return failure();
  }
  if (failed(upgradeNode(*this, state))) {
    return failure();
  }
  if (state.replaced) {
    for (auto [i, output] : llvm::enumerate(node.output())) {
      if (!output.empty() && i < state.replacement.size()) {
        scopes_.back()[output] = state.replacement[i];
      }
    }
    return success();
  }
  auto opName = RegisteredOperationName::lookup(state.opName, context_);
  if (!opName || state.opName == "graph.none" ||
      state.opName == "graph.yield") {
    return markUnsupported(node.op_type());
  }

  // Attributes the op does not declare: legacy ones are dropped, anything
  // else is an error rather than a silently ignored semantic.
  ArrayRef<StringAttr> declared = opName->getAttributeNames();
  NamedAttrList attributes;
  for (NamedAttribute attr : state.attributes) {
    if (llvm::is_contained(declared, attr.getName())) {
      attributes.push_back(attr);
    } else if (!isIgnorableLegacyAttribute(node.op_type(),
                                           attr.getName().getValue())) {
      return emitError(loc)
             << "attribute '" << attr.getName().getValue() << "' of "
             << node.op_type() << " (opset " << version << ") is not supported";
    }
  }

  // The kinds the op's ODS declares (a string, an integer, ...): the
  // checker compares them with the schema's, but not when it is skipped,
  // and the op's accessors assume them.
  if (failed(opName->verifyInherentAttrs(attributes,
                                         [&] { return emitError(loc); }))) {
    return failure();
  }

  if (auto count = fixedOperandCount(*opName)) {
    if (static_cast<int>(state.operands.size()) > *count) {
      return emitError(loc)
             << node.op_type() << " node has " << state.operands.size()
             << " inputs; " << state.opName << " takes " << *count;
    }
    while (static_cast<int>(state.operands.size()) < *count) {
      state.operands.push_back(none());
    }
  }
  int numResults = fixedResultCount(*opName).value_or(node.output_size());
  // Outputs past what the op produces are dropped when nothing reads them
  // (the dead training outputs of an exporter's BatchNormalization-9).
  for (int i = numResults; i < node.output_size(); ++i) {
    if (readNames_.count(node.output(i))) {
      return emitError(loc)
             << node.op_type() << " node has " << node.output_size()
             << " outputs; " << state.opName << " produces " << numResults
             << ", and output " << i << " ('" << printableName(node.output(i))
             << "') is read";
    }
  }
  SmallVector<Type> resultTypes;
  for (int i = 0; i < numResults; ++i) {
    if (i >= node.output_size() || node.output(i).empty()) {
      resultTypes.push_back(builder_.getNoneType());
      continue;
    }
    Type type = resultType(node.output(i), state, schema, i);
    if (!type) {
      return failure();
    }
    resultTypes.push_back(type);
  }

  SmallVector<const onnx::AttributeProto *> graphs;
  for (const auto &attr : node.attribute()) {
    if (attr.type() == onnx::AttributeProto::GRAPH) {
      graphs.push_back(&attr);
    }
  }
  llvm::stable_sort(graphs, [](auto *a, auto *b) {
    return regionOrder(a->name()) < regionOrder(b->name());
  });

  OperationState opState(loc, *opName);
  opState.addOperands(state.operands);
  opState.addTypes(resultTypes);
  opState.addAttributes(attributes);
  for (size_t i = 0; i < graphs.size(); ++i) {
    opState.addRegion();
  }
  Operation *op = builder_.create(opState);
  for (auto [i, attr] : llvm::enumerate(graphs)) {
    if (failed(importRegion(attr->g(), op->getRegion(i), state))) {
      return failure();
    }
  }
  for (int i = 0; i < std::min(node.output_size(), numResults); ++i) {
    if (!node.output(i).empty()) {
      scopes_.back()[node.output(i)] = op->getResult(i);
    }
  }
  return success();
}

LogicalResult GraphImporter::importRegion(const onnx::GraphProto &graph,
                                          Region &region,
                                          const NodeState &owner) {
  collectValueTypes(graph);
  Block *block = new Block();
  region.push_back(block);
  scopes_.emplace_back();
  for (auto [i, input] : llvm::enumerate(graph.input())) {
    std::string error;
    Type type = convertType(context_, input.type(), error);
    if (!type && i < owner.operands.size()) {
      // Loop bodies may leave types out: they follow the Loop operands
      // (trip count, condition, carried values).
      type = owner.operands[i].getType();
      if (isa<NoneType>(type)) {
        type = RankedTensorType::get({}, i == 0 ? builder_.getI64Type()
                                                : builder_.getI1Type());
      }
    }
    if (!type) {
      return emitError(owner.loc)
             << "subgraph input '" << printableName(input.name())
             << "': " << error;
    }
    block->addArgument(type, owner.loc);
    scopes_.back()[input.name()] = block->getArgument(i);
  }
  OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(block);
  if (failed(importInitializers(graph)) || failed(importNodes(graph))) {
    return failure();
  }
  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    Value value = lookup(output.name());
    if (!value) {
      // Either undefined or poisoned by an unsupported op.
      if (!unsupported_.empty()) {
        scopes_.pop_back();
        return success();
      }
      return emitError(owner.loc)
             << "subgraph output '" << printableName(output.name())
             << "' is not produced by any node";
    }
    results.push_back(value);
  }
  graph::YieldOp::create(builder_, owner.loc, results);
  scopes_.pop_back();
  return success();
}

} // namespace infer::onnx_import
