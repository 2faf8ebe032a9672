//===- SpecializeShapes.cpp - fix dynamic input dimensions ----------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/graph/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_SPECIALIZESHAPESPASS
#include "passes/graph/Passes.h.inc"
} // namespace infer::graph

namespace {

/// Fixes the dynamic dims of profile `spec` (name=MIN:OPT:MAX or
/// name=MIN:MAX) whose MIN and MAX agree; anything malformed is left for
/// infer-prepare-entry, which checks the profiles, to report.
void fixProfileDims(StringRef spec, ArrayRef<std::string> names, Block &entry) {
  auto [name, ranges] = spec.split('=');
  SmallVector<StringRef> parts;
  ranges.split(parts, ':');
  auto it = llvm::find(names, name.str());
  if (it == names.end() || (parts.size() != 2 && parts.size() != 3)) {
    return;
  }
  FailureOr<SmallVector<int64_t>> lo = infer::graph::parseDims(parts.front());
  FailureOr<SmallVector<int64_t>> hi = infer::graph::parseDims(parts.back());
  BlockArgument arg = entry.getArgument(it - names.begin());
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (failed(lo) || failed(hi) || !type ||
      lo->size() != static_cast<size_t>(type.getRank()) ||
      hi->size() != lo->size()) {
    return;
  }
  SmallVector<int64_t> shape(type.getShape());
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(size) && (*lo)[d] == (*hi)[d]) {
      size = (*lo)[d];
    }
  }
  arg.setType(RankedTensorType::get(shape, type.getElementType()));
}

struct SpecializeShapesPass final
    : infer::graph::impl::SpecializeShapesPassBase<SpecializeShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal()) {
      return;
    }
    if (batch < 0) {
      func.emitError("batch must not be negative, got ") << batch;
      return signalPassFailure();
    }
    SmallVector<std::string> names;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto name = func.getArgAttrOfType<StringAttr>(i, "graph.name");
      names.push_back(name ? name.str() : "arg" + std::to_string(i));
    }
    Block &entry = func.getBody().front();
    llvm::StringSet<> seen;
    for (const std::string &spec : shapes) {
      auto [name, dimsText] = StringRef(spec).split('=');
      if (name.empty() || !StringRef(spec).contains('=')) {
        func.emitError("bad shape '") << spec << "': expected name=D0xD1x...";
        return signalPassFailure();
      }
      auto dims = infer::graph::parseDims(dimsText);
      if (failed(dims)) {
        func.emitError("bad shape '")
            << spec << "': dimensions must be non-negative integers joined "
            << "by 'x', e.g. 1x3x224x224";
        return signalPassFailure();
      }
      auto it = llvm::find(names, name.str());
      if (it == names.end()) {
        func.emitError("no input named '")
            << name << "'; the inputs are: " << llvm::join(names, ", ");
        return signalPassFailure();
      }
      if (!seen.insert(name).second) {
        func.emitError("input '") << name << "' is given more than one shape";
        return signalPassFailure();
      }
      BlockArgument arg = entry.getArgument(it - names.begin());
      auto type = dyn_cast<TensorType>(arg.getType());
      if (!type) {
        func.emitError("input '") << name << "' is not a tensor";
        return signalPassFailure();
      }
      if (type.hasRank()) {
        if (type.getRank() != static_cast<int64_t>(dims->size())) {
          func.emitError("input '")
              << name << "' has rank " << type.getRank() << " but the shape "
              << dimsText << " has " << dims->size() << " dimensions";
          return signalPassFailure();
        }
        for (auto [i, declared] : llvm::enumerate(type.getShape())) {
          if (!ShapedType::isDynamic(declared) && declared != (*dims)[i]) {
            func.emitError("input '")
                << name << "' has static dimension " << i << " = " << declared
                << "; the shape asks for " << (*dims)[i];
            return signalPassFailure();
          }
        }
      }
      arg.setType(RankedTensorType::get(*dims, type.getElementType()));
    }
    for (const std::string &spec : profiles) {
      fixProfileDims(spec, names, entry);
    }
    if (batch > 0) {
      for (BlockArgument arg : entry.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || type.getRank() == 0 || !type.isDynamicDim(0)) {
          continue;
        }
        SmallVector<int64_t> shape(type.getShape());
        shape[0] = batch;
        arg.setType(RankedTensorType::get(shape, type.getElementType()));
      }
    }
    func.setType(FunctionType::get(&getContext(), entry.getArgumentTypes(),
                                   func.getResultTypes()));
    bool changed = false;
    if (failed(infer::graph::propagateShapes(func, changed))) {
      return signalPassFailure();
    }
  }
};

} // namespace
