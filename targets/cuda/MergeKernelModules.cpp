//===- MergeKernelModules.cpp - one GPU module for all kernels ------------===//

#include "targets/common/Signature.h"
#include "targets/cuda/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_MERGEKERNELMODULESPASS
#include "targets/cuda/Passes.h.inc"

namespace {

struct MergeKernelModulesPass final
    : impl::MergeKernelModulesPassBase<MergeKernelModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto modules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (modules.empty()) {
      return;
    }
    std::string name = moduleName;
    if (name.empty()) {
      auto recorded =
          module->getAttrOfType<DictionaryAttr>(targets::kSignatureAttr);
      auto model = recorded ? recorded.getAs<StringAttr>("name") : StringAttr();
      name = model ? (model.getValue() + "_kernels").str() : "kernels";
    }
    if (module.lookupSymbol(name)) {
      module.emitError("a symbol named @") << name << " already exists";
      return signalPassFailure();
    }
    OpBuilder builder(modules.front());
    auto merged =
        gpu::GPUModuleOp::create(builder, modules.front().getLoc(), name);
    SymbolTable symbols(merged);
    // "module::kernel" -> the kernel's name in the merged module.
    llvm::StringMap<std::string> kernels;
    for (gpu::GPUModuleOp old : modules) {
      for (Operation &op : llvm::make_early_inc_range(*old.getBody())) {
        if (op.hasTrait<OpTrait::IsTerminator>()) {
          continue;
        }
        if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op)) {
          std::string key = (old.getName() + "::" + kernel.getName()).str();
          kernel.setName(old.getName());
          kernel->moveBefore(merged.getBody(), merged.getBody()->end());
          kernels[key] = symbols.insert(kernel).getValue().str();
          continue;
        }
        // Globals the outlining copied into several modules: keep one.
        auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (name && symbols.lookup(name)) {
          continue;
        }
        op.moveBefore(merged.getBody(), merged.getBody()->end());
        if (name) {
          symbols.insert(&op);
        }
      }
      old.erase();
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr ref = launch.getKernel();
      std::string key = (ref.getRootReference().getValue() +
                         "::" + ref.getLeafReference().getValue())
                            .str();
      auto it = kernels.find(key);
      if (it == kernels.end()) {
        return;
      }
      launch.setKernelAttr(SymbolRefAttr::get(
          merged.getNameAttr(), {FlatSymbolRefAttr::get(ctx, it->second)}));
    });
  }
};

} // namespace
} // namespace infer::cuda
