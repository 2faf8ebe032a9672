//===- CompilerSession.h - state of the compiler harnesses ------*- C++ -*-===//
//
// A harness runs millions of models in one process. CompilerSession gives
// each run the model's file and an MLIRContext, rebuilt now and then so
// that what a context interns does not grow without bound, whose
// diagnostic handler holds the compiler to its contract: a failure is
// reported as an error, and an error says something.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TEST_FUZZ_COMPILERSESSION_H
#define INFER_TEST_FUZZ_COMPILERSESSION_H

#include "test/fuzz/InputFile.h"

#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace infer::fuzz {

class CompilerSession {
public:
  CompilerSession() : file(".onnx") {}

  /// Writes the model to its file and returns the path; the next context
  /// (fresh error count) is then context().
  const std::string &beginRun(const uint8_t *data, size_t size);
  mlir::MLIRContext &getContext() { return *context; }

  /// A finding unless this run reported an error: `what` failed, and a
  /// failure must say why.
  void expectError(const char *what) const;

private:
  InputFile file;
  std::unique_ptr<mlir::MLIRContext> context;
  unsigned runsInContext = 0;
  unsigned errors = 0;
};

} // namespace infer::fuzz

#endif // INFER_TEST_FUZZ_COMPILERSESSION_H
