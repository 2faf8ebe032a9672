//===- HostCompile.h - compiling a graph-level model to run it here -*- C++
//-*-===//
//
// The quantizer and the bf16 report measure models by running them: the
// graph-level module is compiled for this machine's CPU into a temporary
// directory and loaded through the runtime (tools/common).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_QUANTIZE_HOSTCOMPILE_H
#define INFER_COMPILER_QUANTIZE_HOSTCOMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallString.h"

#include <string>

namespace infer::quantize {

/// The ONNX node a location names (`loc("node"("OpType"))`), or "".
std::string nodeName(mlir::Location loc);

/// Compiles the graph-level `module` for this machine's CPU into
/// `dir`/`name`.so and returns that path. `module` is lowered in place
/// (compile a clone to keep it).
mlir::FailureOr<std::string> compileForHost(mlir::ModuleOp module,
                                            llvm::StringRef name,
                                            llvm::StringRef dir);

/// A temporary directory, removed with what it holds.
struct TempDir {
  llvm::SmallString<128> path;
  /// Creates it (`prefix` and a unique suffix); an error message or "".
  std::string create(llvm::StringRef prefix);
  ~TempDir();
};

} // namespace infer::quantize

#endif // INFER_COMPILER_QUANTIZE_HOSTCOMPILE_H
