//===- PrepareEntry.cpp - @main -> the target's entry, signature recorded -===//

#include "targets/common/Passes.h"
#include "targets/common/Signature.h"
#include "targets/common/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace infer::targets {

#define GEN_PASS_DEF_PREPAREENTRYPASS
#include "targets/common/Passes.h.inc"

namespace {

bool isIdentifier(StringRef name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  return llvm::all_of(name, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

struct PrepareEntryPass final : impl::PrepareEntryPassBase<PrepareEntryPass> {
  using PrepareEntryPassBase::PrepareEntryPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Target *target = lookupTarget(targetName);
    if (!target) {
      std::string known;
      for (Target *t : getRegisteredTargets()) {
        known += (known.empty() ? "" : ", ") + t->getName().str();
      }
      module.emitError("unknown target '")
          << targetName << "' (this build has: " << known << ")";
      return signalPassFailure();
    }
    if (!isIdentifier(modelName)) {
      module.emitError("--name '")
          << modelName << "' is not a C identifier (letters, digits, '_')";
      return signalPassFailure();
    }
    ModelSignature signature;
    signature.name = modelName;
    if (failed(readSignature(module, "main", signature,
                             target->getDisplayName(),
                             target->acceptsDynamicShapes())) ||
        failed(
            applyShapeProfiles(module, llvm::to_vector(profiles), signature))) {
      return signalPassFailure();
    }
    module->setAttr(kSignatureAttr, signatureToAttr(&getContext(), signature));
    if (!target->fusesIntoWindows()) {
      // Read by infer-fuse-elementwise (passes/fusion/Passes.td).
      module->setAttr("infer.windows_apart", UnitAttr::get(&getContext()));
    }
    auto fn = module.lookupSymbol<func::FuncOp>("main");
    fn.setName(target->getEntryName(modelName));
    fn.setAllArgAttrs(ArrayRef<DictionaryAttr>{});
    fn.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
    for (StringRef attr : {"graph.model_name", "graph.opset"}) {
      module->removeAttr(attr);
    }
  }
};

} // namespace
} // namespace infer::targets
