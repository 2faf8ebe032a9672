//===- ArtifactWriter.h - LLVM IR -> object, header, library ---*- C++ -*-===//
//
// The last step of every target that produces host code or data: an LLVM
// target machine for the chosen triple and CPU, LLVM's optimization
// pipeline, the object file, the C header beside it, and (for the host) a
// shared library linked by the system's cc for infer-run and infer-bench.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_ARTIFACTWRITER_H
#define INFER_TARGETS_COMMON_ARTIFACTWRITER_H

#include "targets/common/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>

namespace llvm {
class Constant;
class Module;
class TargetMachine;
} // namespace llvm

namespace infer::targets {

/// The machine host code is compiled for.
struct MachineOptions {
  std::string targetTriple; // empty: the host
  std::string targetCpu = "native";
  unsigned optLevel = 3;
};

/// An LLVM target machine for `options` (fused multiply-adds allowed), or
/// null with `error` set.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const MachineOptions &options, std::string &error);

/// Runs LLVM's default pipeline at `level` (0-3) on `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine *tm,
                    unsigned level);

/// Writes `data` to a new file that then replaces `path` (see
/// OutputFile.h); errors are reported at `loc`.
mlir::LogicalResult writeFile(const std::string &path, llvm::StringRef data,
                              mlir::Location loc);

/// Writes `objPath`, the object code of `llvmModule` for `tm`.
mlir::LogicalResult writeObject(llvm::Module &llvmModule,
                                llvm::TargetMachine &tm,
                                const std::string &objPath, mlir::Location loc);

/// Links `objPath` into the shared library `soPath` with the system's cc
/// (libm, and LLVM's OpenMP runtime when `openmp`).
mlir::LogicalResult linkShared(const std::string &objPath,
                               const std::string &soPath, bool openmp,
                               mlir::Location loc);

/// Writes `<dir>/<name>.o` from `llvmModule`, `<name>.h` with `header`,
/// and (on the host) `<name>.so` linked from the object.
mlir::LogicalResult
writeArtifacts(llvm::Module &llvmModule, llvm::TargetMachine &target,
               const ModelSignature &sig, llvm::StringRef header, bool host,
               llvm::StringRef outputDir, mlir::Location loc);

/// Writes `<dir>/<name>.o`, `.h` and (for the host) `.so` for a model whose
/// code runs elsewhere: `addDescriptor` adds its data to the (empty) LLVM
/// module and returns the device descriptor the ABI constant points at;
/// `usage` is the header's paragraph on how to run it.
mlir::LogicalResult emitDataArtifacts(
    const ModelSignature &signature, const MachineOptions &options,
    llvm::StringRef outputDir, llvm::StringRef sourceName,
    llvm::StringRef usage, mlir::Location loc,
    llvm::function_ref<llvm::Constant *(llvm::Module &)> addDescriptor);

/// Writes `soPath`, a shared library of `module` (the LLVM dialect) built
/// for this host: optimized, compiled to an object beside it, linked by cc.
mlir::LogicalResult emitHostLibrary(mlir::ModuleOp module,
                                    llvm::StringRef soPath);

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_ARTIFACTWRITER_H
