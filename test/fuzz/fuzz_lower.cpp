//===- fuzz_lower.cpp - libFuzzer harness: model -> graph-opt -> linalg ---===//
//
// Each input is an ONNX model file, taken through what `infer-compile
// --compile-to=fuse` runs: import, graph-opt (shape propagation, folding),
// the CPU target's entry point, lowering to linalg and fusion. Every pass
// runs under the verifier. A crash, a hang, a failure without an error, or
// an empty error message is a finding. Inputs are mutated as models.
//
//===----------------------------------------------------------------------===//

#include "compiler/import/onnx/OnnxImporter.h"
#include "compiler/pipelines/Pipelines.h"
#include "targets/common/Passes.h"
#include "test/fuzz/CompilerSession.h"
#include "test/fuzz/ModelMutator.h"

#include "mlir/Pass/PassManager.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static infer::fuzz::CompilerSession session;
  const std::string &path = session.beginRun(data, size);
  mlir::MLIRContext &context = session.getContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      infer::importOnnxModel(context, path);
  if (!module) {
    session.expectError("the import");
    return 0;
  }
  mlir::PassManager pm(&context);
  infer::buildGraphOptPipeline(pm, infer::GraphOptOptions());
  infer::targets::PrepareEntryPassOptions entry;
  entry.modelName = "m";
  entry.targetName = "cpu";
  pm.addPass(infer::targets::createPrepareEntryPass(entry));
  infer::LowerOptions lowerOptions;
  lowerOptions.checks = true;
  infer::buildLowerPipeline(pm, lowerOptions);
  infer::buildFusePipeline(pm);
  if (mlir::failed(pm.run(*module))) {
    session.expectError("the graph-opt, lower and fuse pipeline");
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  return infer::fuzz::mutateModel(data, size, maxSize, seed);
}
