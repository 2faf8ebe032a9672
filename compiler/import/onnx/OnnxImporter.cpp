//===- OnnxImporter.cpp - ONNX model -> graph dialect ---------------------===//

#include "compiler/import/onnx/OnnxImporter.h"
#include "compiler/import/onnx/GraphImporter.h"
#include "compiler/import/onnx/ModelLoader.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <cctype>

using namespace mlir;

namespace infer {

std::string graphOpNameForOnnx(llvm::StringRef type) {
  // The few ONNX op types whose snake_case spelling reads badly.
  std::string special = llvm::StringSwitch<std::string>(type)
                            .Case("IsNaN", "is_nan")
                            .Case("Col2Im", "col2im")
                            .Default("");
  if (!special.empty()) {
    return "graph." + special;
  }
  std::string name = "graph.";
  for (size_t i = 0; i < type.size(); ++i) {
    char c = type[i];
    if (std::isupper(static_cast<unsigned char>(c)) && i > 0) {
      char prev = type[i - 1];
      bool nextLower = i + 1 < type.size() &&
                       std::islower(static_cast<unsigned char>(type[i + 1]));
      if (std::islower(static_cast<unsigned char>(prev)) ||
          std::isdigit(static_cast<unsigned char>(prev)) ||
          (std::isupper(static_cast<unsigned char>(prev)) && nextLower)) {
        name.push_back('_');
      }
    }
    name.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return name;
}

OwningOpRef<ModuleOp> importOnnxModel(MLIRContext &context, StringRef path,
                                      const OnnxImportOptions &options) {
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  onnx_import::LoadedModel loaded;
  std::string error;
  if (!onnx_import::loadModel(path.str(), options.runChecker, loaded, error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  for (const std::string &warning : loaded.warnings) {
    emitWarning(fileLoc) << warning;
  }
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  std::string modelName = llvm::sys::path::stem(path).str();
  if (!loaded.model.graph().name().empty()) {
    (*module)->setAttr("graph.model_name",
                       builder.getStringAttr(loaded.model.graph().name()));
  }
  (*module)->setAttr("graph.opset", builder.getI64IntegerAttr([&]() -> int64_t {
    for (const auto &opset : loaded.model.opset_import()) {
      if (opset.domain().empty() || opset.domain() == "ai.onnx") {
        return opset.version();
      }
    }
    return 0;
  }()));
  onnx_import::TensorImportOptions tensorOptions;
  tensorOptions.inlineLimit = options.inlineConstantLimit;
  tensorOptions.directory = loaded.directory;
  onnx_import::GraphImporter importer(&context, loaded.model, tensorOptions,
                                      path.str());
  if (failed(importer.importMainGraph(*module, options.functionName))) {
    return nullptr;
  }
  if (!loaded.inferenceError.empty()) {
    emitError(fileLoc) << loaded.inferenceError;
    return nullptr;
  }
  if (failed(verify(*module))) {
    return nullptr;
  }
  return module;
}

} // namespace infer
