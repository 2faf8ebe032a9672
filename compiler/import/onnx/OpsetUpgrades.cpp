//===- OpsetUpgrades.cpp - older ONNX opsets -> the graph dialect's form --===//
//
// The graph dialect has one form per op, the newest opset's. Older opsets
// passed some inputs as attributes (Squeeze/Unsqueeze/Split axes before 13,
// Reduce* axes before 13/18, Slice before 10, Pad and Clip before 11, ...),
// spelt deprecated ops (Upsample, Scatter) or had different semantics
// (Softmax before 13 flattened to 2-d). Each hook below rewrites one of
// these into the current form.
//
//===----------------------------------------------------------------------===//

#include "compiler/import/onnx/GraphImporter.h"
#include "dialects/graph/IR/GraphOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace infer::onnx_import {

namespace {

void ensureOperand(GraphImporter &imp, NodeState &s, unsigned position) {
  while (s.operands.size() <= position) {
    s.operands.push_back(imp.none());
  }
}

/// Moves INTS attribute `name` to operand `position` as a 1-d i64 constant.
void intsToOperand(GraphImporter &imp, NodeState &s, StringRef name,
                   unsigned position) {
  ensureOperand(imp, s, position);
  if (auto ints = attrAs<DenseI64ArrayAttr>(s.attributes, name)) {
    s.operands[position] = imp.i64Constant(s.loc, ints.asArrayRef());
    s.attributes.erase(name);
  }
}

Type elementTypeOf(Value value) {
  auto tensor = dyn_cast<TensorType>(value.getType());
  return tensor ? tensor.getElementType() : Type();
}

/// Moves FLOAT attribute `name` to operand `position` as a scalar of the
/// data operand's element type.
LogicalResult floatToOperand(GraphImporter &imp, NodeState &s, StringRef name,
                             unsigned position, Type elementType) {
  ensureOperand(imp, s, position);
  auto value = attrAs<FloatAttr>(s.attributes, name);
  if (!value) {
    return success();
  }
  if (!elementType) {
    return emitError(s.loc) << "cannot convert attribute '" << name
                            << "': the input's element type is unknown";
  }
  s.operands[position] =
      imp.scalarConstant(s.loc, elementType, value.getValueAsDouble());
  s.attributes.erase(name);
  return success();
}

Value f32Vector(GraphImporter &imp, Location loc, ArrayRef<float> values) {
  auto type = RankedTensorType::get({(int64_t)values.size()},
                                    imp.builder().getF32Type());
  return graph::ConstantOp::create(imp.builder(), loc,
                                   DenseElementsAttr::get(type, values));
}

/// Constant: the value_* attribute variants become one `value`.
LogicalResult upgradeConstant(GraphImporter &imp, NodeState &s) {
  OpBuilder &b = imp.builder();
  ElementsAttr value;
  if (auto v = attrAs<ElementsAttr>(s.attributes, "value")) {
    value = v;
  } else if (auto v = attrAs<FloatAttr>(s.attributes, "value_float")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   v.getValue());
  } else if (auto v = attrAs<DenseF32ArrayAttr>(s.attributes, "value_floats")) {
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)v.size()}, b.getF32Type()),
        v.asArrayRef());
  } else if (auto v = attrAs<IntegerAttr>(s.attributes, "value_int")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   v.getInt());
  } else if (auto v = attrAs<DenseI64ArrayAttr>(s.attributes, "value_ints")) {
    value = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)v.size()}, b.getI64Type()),
        v.asArrayRef());
  } else if (auto v = attrAs<StringAttr>(s.attributes, "value_string")) {
    value = DenseStringElementsAttr::get(
        RankedTensorType::get({}, graph::StringType::get(b.getContext())),
        {v.getValue()});
  } else if (auto v = attrAs<ArrayAttr>(s.attributes, "value_strings")) {
    SmallVector<StringRef> strings;
    for (Attribute a : v) {
      strings.push_back(cast<StringAttr>(a).getValue());
    }
    value = DenseStringElementsAttr::get(
        RankedTensorType::get({(int64_t)strings.size()},
                              graph::StringType::get(b.getContext())),
        strings);
  } else {
    return emitError(s.loc) << "Constant node has no supported value "
                               "attribute (sparse_value is not supported)";
  }
  s.replacement.push_back(graph::ConstantOp::create(b, s.loc, value));
  s.replaced = true;
  return success();
}

/// Softmax, LogSoftmax, Hardmax before opset 13 work on the input flattened
/// to 2-d at `axis`. When `axis` is the last dimension that is the same as
/// the per-axis form; otherwise flatten, apply on axis 1, reshape back.
LogicalResult upgradeSoftmaxLike(GraphImporter &imp, NodeState &s) {
  int64_t axis = 1;
  if (auto attr = attrAs<IntegerAttr>(s.attributes, "axis")) {
    axis = attr.getInt();
  }
  Value input = s.operands[0];
  auto ranked = dyn_cast<RankedTensorType>(input.getType());
  if (ranked) {
    int64_t rank = ranked.getRank();
    int64_t normalized = axis < 0 ? axis + rank : axis;
    if (normalized == rank - 1 || rank == 0) {
      s.attributes.set("axis", imp.builder().getI64IntegerAttr(-1));
      return success();
    }
  }
  OpBuilder &b = imp.builder();
  Type element = elementTypeOf(input);
  if (!element) {
    return emitError(s.loc) << "input type is unknown";
  }
  auto unranked = UnrankedTensorType::get(element);
  Value flat = graph::FlattenOp::create(b, s.loc, unranked, input,
                                        b.getI64IntegerAttr(axis));
  OperationState state(s.loc, s.opName);
  state.addOperands(flat);
  state.addTypes(unranked);
  state.addAttribute("axis", b.getI64IntegerAttr(1));
  Value applied = b.create(state)->getResult(0);
  auto shapeType = UnrankedTensorType::get(b.getI64Type());
  Value shape = graph::ShapeOp::create(b, s.loc, shapeType, input, nullptr,
                                       b.getI64IntegerAttr(0));
  Value result = graph::ReshapeOp::create(b, s.loc, unranked, applied, shape,
                                          b.getI64IntegerAttr(0));
  s.replacement.push_back(result);
  s.replaced = true;
  return success();
}

/// Add, Sub, ... before opset 7 could broadcast B from `axis` of A.
LogicalResult upgradeLegacyBroadcast(GraphImporter &imp, NodeState &s) {
  auto broadcast = attrAs<IntegerAttr>(s.attributes, "broadcast");
  auto axisAttr = attrAs<IntegerAttr>(s.attributes, "axis");
  s.attributes.erase("broadcast");
  s.attributes.erase("axis");
  if (!broadcast || broadcast.getInt() == 0 || !axisAttr) {
    return success(); // numpy-compatible (suffix) alignment.
  }
  auto a = dyn_cast<RankedTensorType>(s.operands[0].getType());
  auto b = dyn_cast<RankedTensorType>(s.operands[1].getType());
  if (!a || !b) {
    return emitError(s.loc)
           << "legacy broadcasting with 'axis' needs operands of known rank";
  }
  int64_t axis = axisAttr.getInt() < 0 ? axisAttr.getInt() + a.getRank()
                                       : axisAttr.getInt();
  int64_t trailing = a.getRank() - axis - b.getRank();
  if (trailing <= 0) {
    return success();
  }
  SmallVector<int64_t> axes, shape(b.getShape());
  for (int64_t i = 0; i < trailing; ++i) {
    axes.push_back(b.getRank() + i);
    shape.push_back(1);
  }
  OpBuilder &builder = imp.builder();
  s.operands[1] = graph::UnsqueezeOp::create(
      builder, s.loc, RankedTensorType::get(shape, b.getElementType()),
      s.operands[1], imp.i64Constant(s.loc, axes));
  return success();
}

} // namespace

bool isIgnorableLegacyAttribute(StringRef opType, StringRef name) {
  return name == "consumed_inputs" || name == "is_test";
}

LogicalResult upgradeNode(GraphImporter &imp, NodeState &s) {
  StringRef op = s.node->op_type();
  int v = s.opsetVersion;
  if (op == "Constant") {
    return upgradeConstant(imp, s);
  }
  if (op == "Squeeze" || op == "Unsqueeze") {
    if (v < 13) {
      intsToOperand(imp, s, "axes", 1);
    }
    return success();
  }
  if (op.starts_with("Reduce")) {
    if ((op == "ReduceSum" && v < 13) || (op != "ReduceSum" && v < 18)) {
      intsToOperand(imp, s, "axes", 1);
    }
    return success();
  }
  if (op == "Split" && v < 13) {
    intsToOperand(imp, s, "split", 1);
    return success();
  }
  if (op == "Slice" && v < 10) {
    intsToOperand(imp, s, "starts", 1);
    intsToOperand(imp, s, "ends", 2);
    intsToOperand(imp, s, "axes", 3);
    return success();
  }
  if (op == "Pad" && v < 11) {
    intsToOperand(imp, s, "pads", 1);
    if (!s.attributes.get("value")) {
      return success();
    }
    return floatToOperand(imp, s, "value", 2, elementTypeOf(s.operands[0]));
  }
  if (op == "Clip" && v < 11) {
    Type element = elementTypeOf(s.operands[0]);
    if (failed(floatToOperand(imp, s, "min", 1, element)) ||
        failed(floatToOperand(imp, s, "max", 2, element))) {
      return failure();
    }
    return success();
  }
  if (op == "Dropout" && v < 12) {
    return floatToOperand(imp, s, "ratio", 1, imp.builder().getF32Type());
  }
  if (op == "TopK" && v < 10) {
    ensureOperand(imp, s, 1);
    if (auto k = attrAs<IntegerAttr>(s.attributes, "k")) {
      s.operands[1] = imp.i64Constant(s.loc, {k.getInt()});
      s.attributes.erase("k");
    }
    return success();
  }
  if (op == "DFT" && v < 20) {
    // DFT-17's axis attribute defaults to 1; DFT-20's operand to -2.
    ensureOperand(imp, s, 2);
    int64_t axis = 1;
    if (auto attr = attrAs<IntegerAttr>(s.attributes, "axis")) {
      axis = attr.getInt();
      s.attributes.erase("axis");
    }
    s.operands[2] = imp.i64Constant(s.loc, {axis}, /*scalar=*/true);
    return success();
  }
  if (op == "Upsample" || (op == "Resize" && v < 11)) {
    // Upsample-7 (scales attribute), Upsample-9 and Resize-10 (scales
    // input) all compute asymmetric coordinates with floor rounding.
    OpBuilder &b = imp.builder();
    Value scales = s.operands.size() > 1 ? s.operands[1] : imp.none();
    if (auto attr = attrAs<DenseF32ArrayAttr>(s.attributes, "scales")) {
      scales = f32Vector(imp, s.loc, attr.asArrayRef());
      s.attributes.erase("scales");
    }
    s.operands = {s.operands[0], imp.none(), scales, imp.none()};
    s.opName = "graph.resize";
    s.attributes.set("coordinate_transformation_mode",
                     b.getStringAttr("asymmetric"));
    s.attributes.set("nearest_mode", b.getStringAttr("floor"));
    return success();
  }
  if (op == "Scan" && v < 9) {
    return emitError(s.loc) << "Scan before opset 9 (batched, with "
                               "sequence_lens) is not supported";
  }
  if (op == "PRelu" && v < 7) {
    // PRelu-6 applied a 1-d slope per channel (dimension 1).
    auto x = dyn_cast<RankedTensorType>(s.operands[0].getType());
    auto slope = dyn_cast<RankedTensorType>(s.operands[1].getType());
    if (x && slope && slope.getRank() == 1 && x.getRank() > 2 &&
        slope.getDimSize(0) != 1) {
      SmallVector<int64_t> axes, shape(slope.getShape());
      for (int64_t i = 1; i < x.getRank() - 1; ++i) {
        axes.push_back(i);
        shape.push_back(1);
      }
      s.operands[1] = graph::UnsqueezeOp::create(
          imp.builder(), s.loc,
          RankedTensorType::get(shape, slope.getElementType()), s.operands[1],
          imp.i64Constant(s.loc, axes));
    }
    return success();
  }
  if (op == "Scatter") {
    s.opName = "graph.scatter_elements";
    return success();
  }
  if ((op == "Softmax" || op == "LogSoftmax" || op == "Hardmax") && v < 13) {
    return upgradeSoftmaxLike(imp, s);
  }
  if (op == "BatchNormalization" && v < 14) {
    if (auto spatial = attrAs<IntegerAttr>(s.attributes, "spatial")) {
      if (spatial.getInt() != 1) {
        return emitError(s.loc)
               << "BatchNormalization with spatial = 0 is not supported";
      }
      s.attributes.erase("spatial");
    }
    // Before opset 14 the outputs say the mode: Y alone is inference, Y
    // with the running statistics (and the saved ones) is training, as
    // ONNX Runtime runs it (PyTorch exports F.batch_norm(training=True),
    // e.g. a weight standardization, that way).
    auto isTest = attrAs<IntegerAttr>(s.attributes, "is_test");
    bool statistics =
        llvm::any_of(llvm::drop_begin(s.node->output()),
                     [](const std::string &name) { return !name.empty(); });
    if (statistics && !(isTest && isTest.getInt() == 1)) {
      s.attributes.set("training_mode", imp.builder().getI64IntegerAttr(1));
    }
    s.attributes.erase("is_test");
    return success();
  }
  if (v < 7 && llvm::is_contained({"Add", "Sub", "Mul", "Div", "Pow", "And",
                                   "Or", "Xor", "Equal", "Greater", "Less"},
                                  op)) {
    return upgradeLegacyBroadcast(imp, s);
  }
  if (op == "Gemm" && v < 7) {
    s.attributes.erase("broadcast");
  }
  return success();
}

} // namespace infer::onnx_import
