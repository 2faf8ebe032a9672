//===- BindInputs.cpp - inputs replaced by compile-time values ------------===//
//
// `--bind sample_rate=16000` turns a configuration input into a constant,
// so the shape and control-flow folding that follows can specialise the
// model to it (an If on `sample_rate == 16000` keeps one branch).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "passes/graph/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_BINDINPUTSPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

namespace {

/// Parses `text` as one element of `type`; a message in `error` on failure.
std::optional<Attribute> parseElement(StringRef text, Type type,
                                      std::string &error) {
  text = text.trim();
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.getWidth() == 1) {
      if (text == "1" || text == "true") {
        return IntegerAttr::get(type, 1);
      }
      if (text == "0" || text == "false") {
        return IntegerAttr::get(type, 0);
      }
      error = "'" + text.str() + "' is not a boolean (0, 1, true or false)";
      return std::nullopt;
    }
    APInt value;
    bool isUnsigned = intType.isUnsigned();
    if (text.getAsInteger(10, value) || (isUnsigned && text.starts_with("-"))) {
      error = "'" + text.str() + "' is not an integer";
      return std::nullopt;
    }
    unsigned width = intType.getWidth();
    bool fits = isUnsigned ? value.getActiveBits() <= width
                           : value.getSignificantBits() <= width;
    if (!fits) {
      error = "'" + text.str() + "' does not fit in " + std::to_string(width) +
              " bits";
      return std::nullopt;
    }
    return IntegerAttr::get(type, isUnsigned ? value.zextOrTrunc(width)
                                             : value.sextOrTrunc(width));
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    double value = 0;
    if (!llvm::to_float(text, value)) {
      error = "'" + text.str() + "' is not a number";
      return std::nullopt;
    }
    return FloatAttr::get(floatType, value);
  }
  error = "inputs of element type this pass cannot parse";
  return std::nullopt;
}

struct BindInputsPass final
    : infer::graph::impl::BindInputsPassBase<BindInputsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || bindings.empty()) {
      return;
    }
    // A textual pipeline splits `bind=mask=1,0,1` at its commas: entries
    // without '=' continue the previous binding.
    SmallVector<std::string> specs;
    for (const std::string &entry : bindings) {
      if (!specs.empty() && !StringRef(entry).contains('=')) {
        specs.back() += "," + entry;
      } else {
        specs.push_back(entry);
      }
    }
    llvm::StringSet<> seen;
    llvm::BitVector erase(func.getNumArguments());
    for (const std::string &spec : specs) {
      auto [name, valuesText] = StringRef(spec).split('=');
      if (name.empty() || !StringRef(spec).contains('=') ||
          valuesText.empty()) {
        func.emitError("bad binding '")
            << spec << "': expected name=value or name=v0,v1,...";
        return signalPassFailure();
      }
      std::optional<unsigned> index;
      SmallVector<std::string> names;
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        auto attr = func.getArgAttrOfType<StringAttr>(i, "graph.name");
        names.push_back(attr ? attr.str() : "arg" + std::to_string(i));
        if (names.back() == name) {
          index = i;
        }
      }
      if (!index) {
        func.emitError("--bind: no input named '")
            << name << "'; the inputs are: " << llvm::join(names, ", ");
        return signalPassFailure();
      }
      if (!seen.insert(name).second) {
        func.emitError("--bind: input '")
            << name << "' is bound more than once";
        return signalPassFailure();
      }
      BlockArgument arg = func.getArgument(*index);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type) {
        func.emitError("--bind: input '") << name << "' has no known rank";
        return signalPassFailure();
      }
      SmallVector<StringRef> parts;
      valuesText.split(parts, ',');
      int64_t count = parts.size();
      SmallVector<int64_t> shape(type.getShape());
      if (type.getRank() == 1 && type.isDynamicDim(0)) {
        shape[0] = count;
      }
      auto valueType = RankedTensorType::get(shape, type.getElementType());
      if (!valueType.hasStaticShape() || valueType.getNumElements() != count) {
        func.emitError("--bind: input '")
            << name << "' of type " << type << " needs "
            << (valueType.hasStaticShape()
                    ? std::to_string(valueType.getNumElements())
                    : std::string("a static shape and"))
            << " values, got " << count;
        return signalPassFailure();
      }
      SmallVector<Attribute> elements;
      for (StringRef part : parts) {
        std::string error;
        auto element = parseElement(part, type.getElementType(), error);
        if (!element) {
          func.emitError("--bind: input '") << name << "': " << error;
          return signalPassFailure();
        }
        elements.push_back(*element);
      }
      OpBuilder b(func.getBody());
      auto constant = infer::graph::ConstantOp::create(
          b, func.getLoc(), DenseElementsAttr::get(valueType, elements));
      arg.replaceAllUsesWith(constant);
      erase.set(*index);
    }
    if (failed(func.eraseArguments(erase))) {
      func.emitError("--bind: could not remove the bound inputs");
      return signalPassFailure();
    }
    bool changed = false;
    if (failed(infer::graph::propagateShapes(func, changed))) {
      return signalPassFailure();
    }
  }
};

} // namespace
