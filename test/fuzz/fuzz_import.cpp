//===- fuzz_import.cpp - libFuzzer harness: bytes -> graph IR -------------===//
//
// Each input is an ONNX model file: the importer reads it (checker, shape
// inference, external-data rules and all), and the module it builds must
// verify. A crash, a hang, a failure without an error, or an empty error
// message is a finding. Inputs are mutated as models (ModelMutator.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/import/onnx/OnnxImporter.h"
#include "test/fuzz/CompilerSession.h"
#include "test/fuzz/ModelMutator.h"

#include "mlir/IR/Verifier.h"

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
  if (mlir::failed(mlir::verify(*module))) {
    session.expectError("verifying the imported module");
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  return infer::fuzz::mutateModel(data, size, maxSize, seed);
}
