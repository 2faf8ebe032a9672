//===- CpuTarget.h - the CPU target: pipeline and artifact ------*- C++ -*-===//
//
// The CPU target lowers linalg on tensors to the LLVM dialect (bufferize,
// loops, LLVM), then emits one relocatable object with the model's weights
// in read-only data, a C header, and a shared library for tools.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_CPUTARGET_H
#define INFER_TARGETS_CPU_CPUTARGET_H

#include "targets/common/ArtifactWriter.h"
#include "targets/common/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

#include <cstdint>
#include <string>
#include <vector>

namespace infer::cpu {

using targets::ModelSignature;
using targets::TensorSignature;
using CpuOptions = targets::MachineOptions;

/// Emits `<name>_main` for a dynamic model (see DynamicEntry.cpp) around
/// the compiled function, which it renames `<name>_main.impl`.
llvm::FailureOr<llvm::Function *> addDynamicEntry(llvm::Module &module,
                                                  const ModelSignature &sig,
                                                  std::string &error);

/// Knobs of the code generation pipeline (`cpu-codegen{...}` in infer-opt).
struct CodegenOptions {
  unsigned vectorBits = 256; // the widest vector registers of the target
  bool openmp = false;       // parallel loops through the OpenMP runtime
  // The generic variant of a model with dynamic dims: results are returned
  // in buffers the code allocates, and the entry takes memref descriptors.
  bool dynamicShapes = false;
};

/// The widest vector registers of the target `options` name: 512 with
/// AVX-512, 256 with AVX, else 128.
unsigned vectorBits(const CpuOptions &options);

/// Tensors (graph -> linalg already done) to the LLVM dialect; the entry
/// function takes one bare pointer per input, then per output.
void buildCpuCodegenPipeline(mlir::OpPassManager &pm,
                             const CodegenOptions &options = {});

/// Registers `cpu-codegen` for infer-opt.
void registerCpuPipelines();

/// Writes `<dir>/<name>.o`, `<name>.h` and (for the host) `<name>.so`.
/// `module` is in the LLVM dialect with `@<name>_main`.
llvm::LogicalResult emitArtifacts(mlir::ModuleOp module,
                                  const ModelSignature &signature,
                                  const CpuOptions &options,
                                  llvm::StringRef outputDir,
                                  llvm::StringRef sourceName);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CPUTARGET_H
