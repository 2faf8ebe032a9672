//===- PassPlugins.cpp - infer-compile's pass plugins and insertions ------===//

#include "compiler/driver/PassPlugins.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace infer {

llvm::ArrayRef<llvm::StringRef> insertionPhases() {
  static const llvm::StringRef phases[] = {"import", "graph", "linalg", "fuse",
                                           "llvm"};
  return phases;
}

bool loadPassPlugins(llvm::ArrayRef<std::string> paths, std::string &error) {
  for (const std::string &path : paths) {
    llvm::Expected<mlir::PassPlugin> plugin = mlir::PassPlugin::load(path);
    if (!plugin) {
      error = "cannot load the pass plugin '" + path +
              "': " + llvm::toString(plugin.takeError());
      return false;
    }
    plugin->registerPassRegistryCallbacks();
  }
  return true;
}

bool parsePassInsertions(llvm::ArrayRef<std::string> values,
                         std::vector<PassInsertion> &out, std::string &error) {
  for (const std::string &value : values) {
    auto [phase, pipeline] = llvm::StringRef(value).split(':');
    phase = phase.trim();
    pipeline = pipeline.trim();
    if (!llvm::is_contained(insertionPhases(), phase) || pipeline.empty()) {
      error = "--insert-pass-after='" + value +
              "': expected PHASE:PIPELINE with PHASE one of import, graph, "
              "linalg, fuse, llvm (e.g. linalg:'func.func(my-pass)')";
      return false;
    }
    // Parse it once now, so a misspelt pass fails before any work.
    mlir::OpPassManager scratch(mlir::ModuleOp::getOperationName());
    std::string message;
    llvm::raw_string_ostream os(message);
    if (mlir::failed(mlir::parsePassPipeline(pipeline, scratch, os))) {
      // The parser's first line, without its "<source>:1:1: error: ".
      llvm::StringRef first = llvm::StringRef(message).split('\n').first;
      size_t at = first.find("error: ");
      if (at != llvm::StringRef::npos) {
        first = first.drop_front(at + 7);
      }
      error = "--insert-pass-after='" + value + "': " + first.str();
      if (first.contains("does not refer to a registered pass")) {
        error += " (a plugin's passes exist once --load-pass-plugin loads it)";
      }
      return false;
    }
    out.push_back({phase.str(), pipeline.str()});
  }
  return true;
}

void appendPassInsertions(mlir::OpPassManager &pm,
                          llvm::ArrayRef<PassInsertion> insertions,
                          llvm::StringRef phase) {
  for (const PassInsertion &insertion : insertions) {
    if (insertion.phase == phase) {
      // Parsed without error in parsePassInsertions.
      (void)mlir::parsePassPipeline(insertion.pipeline, pm, llvm::errs());
    }
  }
}

} // namespace infer
