//===- CpuTarget.h - the CPU target: pipeline and artifact ------*- C++ -*-===//
//
// The CPU target lowers linalg on tensors to the LLVM dialect (bufferize,
// loops, LLVM), then emits one relocatable object with the model's weights
// in read-only data, a C header, and a shared library for tools.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_CPUTARGET_H
#define INFER_TARGETS_CPU_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace llvm {
class Constant;
class Function;
class Module;
} // namespace llvm

#include <cstdint>
#include <string>
#include <vector>

namespace infer::cpu {

/// One model input or output as the artifact exposes it.
struct TensorSignature {
  std::string name;   // the ONNX name
  int32_t dtype = 0;  // infer_dtype_t (ONNX numbering)
  std::vector<int64_t> shape; // -1: a dynamic dim (sized at run time)
  // Inputs with dynamic dims: the profile's smallest, optimal and largest
  // shapes (equal to `shape` at static dims).
  std::vector<int64_t> min, opt, max;
  bool isDynamic() const;
};

struct ModelSignature {
  std::string name; // symbol prefix
  std::vector<TensorSignature> inputs;
  std::vector<TensorSignature> outputs;
  uint64_t workspaceSize = 0; // bytes; set from the planned module
  bool usesOpenMP = false;    // the code calls LLVM's OpenMP runtime
  bool isCuda = false;        // kernels for the GPU: no CPU entry point
  // Run-time checks (infer-cpu-checks-to-status): the entry function takes
  // a status argument last; status k > 0 means errors[k-1].
  bool hasStatus = false;
  std::vector<std::string> errors;
  // Some input or output has a dynamic dim: the code is the generic
  // variant (see addDynamicEntry).
  bool dynamic = false;
};

struct CpuOptions {
  std::string targetTriple; // empty: the host
  std::string targetCpu = "native";
  unsigned optLevel = 3;
};

/// Reads names, dtypes and static shapes of the entry function `func`
/// (graph level). Fails with an error naming the first dynamic input or
/// unsupported type; `target` names the target in it.
/// With `allowDynamic` (the CPU target), `?` dims are kept (-1) and the
/// signature is marked dynamic.
llvm::LogicalResult readSignature(mlir::ModuleOp module, llvm::StringRef func,
                                  ModelSignature &signature,
                                  llvm::StringRef target = "CPU",
                                  bool allowDynamic = false);

/// Appends the run-time checks' messages (the module's `infer.errors`, set
/// by infer-cpu-checks-to-status) to `signature.errors`; returns whether the
/// module has that attribute, i.e. whether its code reports a status.
bool readCheckMessages(mlir::ModuleOp module, ModelSignature &signature);

/// Sets each dynamic input's profile from `profiles` ("name=MIN:OPT:MAX" or
/// "name=MIN:MAX", each a shape like 1x3x224x224); inputs without one get
/// min 1, opt 1 and max INT64_MAX at their dynamic dims.
llvm::LogicalResult applyShapeProfiles(mlir::ModuleOp module,
                                       llvm::ArrayRef<std::string> profiles,
                                       ModelSignature &signature);

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

/// Linalg on tensors -> fused, bufferized functions whose results are
/// out-parameters (inputs stay read-only): the start of every target's
/// code generation.
/// With `outParams` false (dynamic shapes), the results stay returned
/// values the function allocates.
void buildBufferizePipeline(mlir::OpPassManager &pm, bool outParams = true);

/// Tensors (graph -> linalg already done) to the LLVM dialect; the entry
/// function takes one bare pointer per input, then per output.
void buildCpuCodegenPipeline(mlir::OpPassManager &pm,
                             const CodegenOptions &options = {});

/// Loops on buffers (scf, affine, memref, arith, math) to the LLVM dialect:
/// the end of `buildCpuCodegenPipeline`, also used to build the CUDA
/// kernels for the emulator. `barePointers`: memref arguments become plain
/// pointers; `genericAllocations`: allocations call the generic functions.
void buildLoopsToLLVMPipeline(mlir::OpPassManager &pm, bool barePointers,
                              bool genericAllocations, bool openmp);

/// Writes `soPath`, a shared library of `module` (the LLVM dialect) built
/// for this host: optimized, compiled to an object beside it, linked by cc.
llvm::LogicalResult emitHostLibrary(mlir::ModuleOp module,
                                    llvm::StringRef soPath);

/// Registers `cpu-codegen` for infer-opt.
void registerCpuPipelines();

/// Writes `<dir>/<name>.o`, `<name>.h` and (for the host) `<name>.so`.
/// `module` is in the LLVM dialect with `@<name>_main`.
llvm::LogicalResult emitArtifacts(mlir::ModuleOp module,
                                  const ModelSignature &signature,
                                  const CpuOptions &options,
                                  llvm::StringRef outputDir,
                                  llvm::StringRef sourceName);

/// Writes `<dir>/<name>.o`, `.h` and (for the host) `.so` for a model whose
/// code runs elsewhere: `addDescriptor` adds its data to the (empty) LLVM
/// module and returns the descriptor the ABI constant points at
/// (infer_abi_model.cuda).
llvm::LogicalResult emitDataArtifacts(
    const ModelSignature &signature, const CpuOptions &options,
    llvm::StringRef outputDir, llvm::StringRef sourceName, mlir::Location loc,
    llvm::function_ref<llvm::Constant *(llvm::Module &)> addDescriptor);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CPUTARGET_H
