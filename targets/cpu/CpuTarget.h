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
#include "targets/common/Target.h"

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
  // L2 cache bytes per core of the target (the kernels' k-blocks).
  int64_t l2Bytes = 1024 * 1024;
  // The widest vpdpbusd of the target (512: AVX-512 VNNI, 256: AVX-VNNI;
  // 0: none), for int8 contractions.
  unsigned byteDotBits = 0;
  // The widest vdpbf16ps of the target (512 or 256 with AVX512-BF16; 0:
  // none), for contractions over bfloat16 pairs.
  unsigned bf16DotBits = 0;
  // Without it, AVX2's vpmaddwd on 16-bit halves (else each lane apart).
  bool wordDot = false;
  // Where parallel loops get their threads: nowhere (serial code), the
  // executor the caller sets (`<name>_set_executor`; the runtime's pool),
  // or LLVM's OpenMP runtime.
  enum class Parallel { None, Runtime, OpenMP };
  Parallel parallel = Parallel::None;
  // The generic variant of a model with dynamic dims: results are returned
  // in buffers the code allocates, and the entry takes memref descriptors.
  bool dynamicShapes = false;
  // f32 exp, tanh, erf, log... as inline polynomials (vectorizable), not
  // libm calls.
  bool approximateMath = true;
  // 3x3 stride-1 convolutions as Winograd F(2x2, 3x3) (Winograd.cpp).
  bool winograd = true;
  // Cycle-counter stamps between kernels and their metadata in the
  // artifact (infer-bench --profile).
  bool profile = false;
};

/// The widest vector registers of the target `options` name: 512 with
/// AVX-512, 256 with AVX, else 128.
unsigned vectorBits(const CpuOptions &options);

/// The widest vpdpbusd of the target `options` name: 512 with AVX-512
/// VNNI, 256 with AVX-VNNI, else 0.
unsigned byteDotBits(const CpuOptions &options);

/// The widest vdpbf16ps of the target `options` name: 512 with
/// AVX512-BF16, 256 with it and AVX512-VL, else 0.
unsigned bf16DotBits(const CpuOptions &options);

/// L2 cache bytes per core of the target `options` name: this machine's
/// (from sysfs) for --target-cpu=native, else the named CPU's where
/// known, else 1 MiB.
int64_t l2CacheBytes(const CpuOptions &options);

/// Whether the target `options` name has AVX2's vpmaddwd (the int8
/// kernels' exact route without VNNI).
bool hasWordDot(const CpuOptions &options);

/// Tensors (graph -> linalg already done) to the LLVM dialect; the entry
/// function takes one bare pointer per input, then per output.
void buildCpuCodegenPipeline(mlir::OpPassManager &pm,
                             const CodegenOptions &options = {});

/// The CPU target's options: `infer-compile --target=cpu --NAME=VALUE`
/// and `infer-opt --cpu-codegen="NAME=VALUE ..."`.
struct CpuTargetOptions : public targets::TargetOptions<CpuTargetOptions> {
  Option<std::string> targetTriple{
      *this, "target-triple",
      llvm::cl::desc("LLVM target triple (default: this machine)")};
  Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("CPU to tune and select instructions for: native "
                     "(default), x86-64-v3, x86-64-v4, neoverse-v1, ..."),
      llvm::cl::init("native")};
  Option<std::string> parallel{
      *this, "parallel",
      llvm::cl::desc(
          "Threads inside one run: 'runtime' (default) splits matmuls and "
          "convolutions into tasks for the executor the caller sets "
          "(the runtime's thread pool, infer_model_options.intra_op_threads; "
          "without one the code runs on the calling thread), 'openmp' uses "
          "LLVM's OpenMP runtime instead (link with -lomp; OMP_NUM_THREADS "
          "sets the count), 'none' gives single-threaded code"),
      llvm::cl::init("runtime")};
  Option<std::string> math{
      *this, "math",
      llvm::cl::desc("f32 exp, tanh, erf, log and log1p: "
                     "'polynomial' (default) computes them inline, in "
                     "vector lanes, within a few ulp of the exact value "
                     "(docs/design/cpu-kernels.md states each bound); "
                     "'libm' calls the C library once per element"),
      llvm::cl::init("polynomial")};
  Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("3x3 stride-1 convolutions with constant filters and "
                     "16 or more channels as "
                     "Winograd F(2x2, 3x3): 16 multiplications per 4 "
                     "outputs where the direct form takes 36, results "
                     "within float rounding of it (default true; false: "
                     "every convolution as an implicit GEMM)"),
      llvm::cl::init(true)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Instrument the code: the cycle counter is read "
                     "between kernels (each fused op group) and the "
                     "artifact lists each kernel's ONNX nodes, FLOPs and "
                     "bytes, for infer-bench --profile (static shapes "
                     "only; costs a few ns per kernel, nothing when off)"),
      llvm::cl::init(false)};
  Option<unsigned> l2CacheKib{
      *this, "l2-cache-kib",
      llvm::cl::desc("L2 cache per core the kernels block for, in KiB "
                     "(default 0: this machine's for --target-cpu=native, "
                     "else the named CPU's, 1024 when unknown)"),
      llvm::cl::init(0)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width the kernels assume: 128, 256 "
                     "or 512 (default 0: the widest --target-cpu has)"),
      llvm::cl::init(0), llvm::cl::Hidden};
  Option<bool> dynamicShapes{
      *this, "dynamic-shapes",
      llvm::cl::desc("The generic variant of a model with dynamic dims: "
                     "return allocated results, keep memref descriptors "
                     "(infer-compile sets it from the model)"),
      llvm::cl::init(false), llvm::cl::Hidden};
};

/// Registers the CPU target (see targets/common/Target.h).
void registerTarget();

/// Writes `<dir>/<name>.o`, `<name>.h` and (for the host) `<name>.so`.
/// `module` is in the LLVM dialect with `@<name>_main`. Without
/// `freeMemory` the LLVM module and context are left to the OS.
llvm::LogicalResult
emitArtifacts(mlir::ModuleOp module, const ModelSignature &signature,
              const CpuOptions &options, llvm::StringRef outputDir,
              llvm::StringRef sourceName, bool freeMemory = true);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CPUTARGET_H
