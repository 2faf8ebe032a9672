//===- CompilerSession.cpp - state of the compiler harnesses --------------===//

#include "test/fuzz/CompilerSession.h"

#include "compiler/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

// LLVM's BumpPtrAllocator poisons its slabs in code built with ASan (the
// harness's inline copies) but not in libMLIR's: storage the uninstrumented
// library hands out would read as poisoned. Manual poisoning is off; every
// other check stays.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

namespace infer::fuzz {
namespace {

/// Runs in one context before it is rebuilt: often enough to bound what it
/// interns (attributes, resource blobs), rarely enough not to cost much.
constexpr unsigned kRunsPerContext = 500;

} // namespace

const std::string &CompilerSession::beginRun(const uint8_t *data, size_t size) {
  if (!context || ++runsInContext >= kRunsPerContext) {
    context.reset();
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    context->getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
      if (diag.getSeverity() != mlir::DiagnosticSeverity::Error) {
        return;
      }
      ++errors;
      if (diag.str().empty()) {
        finding("an error diagnostic with an empty message");
      }
    });
    runsInContext = 0;
  }
  errors = 0;
  return file.write(data, size);
}

void CompilerSession::expectError(const char *what) const {
  if (errors == 0) {
    finding(std::string(what) + " failed without an error diagnostic");
  }
}

} // namespace infer::fuzz
