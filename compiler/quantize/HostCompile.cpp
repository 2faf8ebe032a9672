//===- HostCompile.cpp - compiling a graph-level model to run it here -----===//

#include "compiler/quantize/HostCompile.h"
#include "compiler/pipelines/Pipelines.h"
#include "targets/common/Passes.h"
#include "targets/common/Target.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

namespace infer::quantize {

std::string nodeName(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty()) {
    loc = fused.getLocations().front();
  }
  if (auto name = dyn_cast<NameLoc>(loc)) {
    return name.getName().str();
  }
  return "";
}

FailureOr<std::string> compileForHost(ModuleOp module, StringRef name,
                                      StringRef dir) {
  targets::Target *cpu = targets::lookupTarget("cpu");
  if (!cpu) {
    return emitError(module.getLoc())
           << "measuring the model needs the CPU target to run it here";
  }
  targets::PrepareEntryPassOptions entry;
  entry.modelName = name.str();
  entry.targetName = "cpu";
  PassManager pm(module.getContext());
  pm.addPass(targets::createPrepareEntryPass(entry));
  buildLowerPipeline(pm, LowerOptions());
  buildFusePipeline(pm);
  targets::ModelSignature signature;
  if (failed(pm.run(module)) ||
      failed(targets::readSignatureAttr(module, signature))) {
    return failure();
  }
  targets::CompileOutput output;
  output.directory = dir.str();
  output.sourceName = name.str();
  PassManager codegen(module.getContext());
  if (failed(cpu->buildCodegenPipeline(codegen, module, signature, output)) ||
      failed(codegen.run(module)) ||
      failed(cpu->emit(module, signature, output))) {
    return failure();
  }
  return (dir + "/" + name + ".so").str();
}

std::string TempDir::create(StringRef prefix) {
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(prefix, path)) {
    return "cannot create a temporary directory: " + ec.message();
  }
  return "";
}

TempDir::~TempDir() {
  if (!path.empty()) {
    llvm::sys::fs::remove_directories(path);
  }
}

} // namespace infer::quantize
