//===- CudaTarget.h - the CUDA target: pipeline and kernels -----*- C++ -*-===//
//
// The CUDA target lowers linalg on tensors to GPU kernels: bufferize, plan
// one device workspace, loops on buffers, every top-level loop nest one
// kernel (blocks x threads), kernels outlined into one GPU module and
// compiled to PTX by LLVM's NVPTX back end through MLIR's NVVM target, one
// image per GPU architecture. The host side is a launch schedule: which
// kernel, grid and block, and which buffer (input, output, workspace
// offset) each argument is.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CUDA_CUDATARGET_H
#define INFER_TARGETS_CUDA_CUDATARGET_H

#include "targets/common/Signature.h"
#include "targets/common/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace infer::cuda {

struct CudaOptions {
  std::vector<std::string> chips = {"sm_90"}; // GPU architectures
  int64_t blockSize = 256;                    // threads per block
  bool tunedKernels = true; // tiled contractions, warp reductions
  // Tuning thresholds (tests lower them to reach the tuned kernels with
  // small models): see infer-cuda-tile-contractions and
  // infer-cuda-map-parallel-loops.
  int64_t tileMinBlocks = 128;
  int64_t warpMinLength = 32;
  std::string emulationLibrary; // non-empty: also write this host library
  bool emitPtx = false;         // keep NAME.<arch>.ptx beside the artifact
  std::string ptxas;            // "" -> search CUDA_HOME, /usr/local/cuda
  std::string libdevice;        // "" -> search the same places
  // Describe each launch's kernel (ONNX nodes, FLOPs, bytes) in the
  // artifact, for the runtime's event-timed runs (infer-bench --profile).
  bool profile = false;
};

/// Fused linalg on tensors -> a host function of kernel launches and one
/// gpu.binary holding a PTX image per chip (in `<name>_kernels`, the name
/// from infer.signature).
void buildCudaCodegenPipeline(mlir::OpPassManager &pm,
                              const CudaOptions &options);

/// The CUDA target's options: `infer-compile --target=cuda --NAME=VALUE`
/// and `infer-opt --cuda-codegen="NAME=VALUE ..."`.
struct CudaTargetOptions : public targets::TargetOptions<CudaTargetOptions> {
  ListOption<std::string> gpuArch{
      *this, "gpu-arch",
      llvm::cl::desc("GPU architecture to compile for (repeatable; default "
                     "sm_90, H100/H200): one PTX image and, when ptxas is "
                     "found ($CUDA_HOME, /usr/local/cuda or PATH), one "
                     "cubin each")};
  Option<int64_t> gpuBlockSize{
      *this, "gpu-block-size",
      llvm::cl::desc("Threads per block of the elementwise and reduction "
                     "kernels (default 256)"),
      llvm::cl::init(256)};
  Option<std::string> gpuKernels{
      *this, "gpu-kernels",
      llvm::cl::desc("Kernel shapes: 'tuned' (default) gives large "
                     "contractions (MatMul, Gemm, Conv) shared-memory tiled "
                     "kernels and long reductions over few outputs one warp "
                     "per output; 'simple' gives every output its own thread "
                     "(to compare, or to rule the tuned kernels out)"),
      llvm::cl::init("tuned")};
  Option<std::string> emit{
      *this, "emit",
      llvm::cl::desc("Extra files to write: 'ptx' keeps NAME.<arch>.ptx, the "
                     "PTX the artifact embeds, for inspection"),
      llvm::cl::init("")};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("List each launch's kernel (its ONNX nodes, FLOPs and "
                     "bytes) in the artifact, for infer-bench --profile: "
                     "the runtime then times every launch with CUDA events "
                     "(profiled runs launch one by one, without a CUDA "
                     "graph; the code itself is unchanged)"),
      llvm::cl::init(false)};
  Option<bool> gpuEmulation{
      *this, "gpu-emulation",
      llvm::cl::desc("Also write <name>.emu.so: the kernels built for this "
                     "CPU, which test/cuda-emulator runs in place of a GPU "
                     "(for tests where no GPU is available)"),
      llvm::cl::init(false)};
  Option<int64_t> gpuTileMinBlocks{
      *this, "gpu-tile-min-blocks",
      llvm::cl::desc("Tile a contraction only when its tiles give this many "
                     "blocks (default 128; 1 tiles every contraction, for "
                     "tests)"),
      llvm::cl::init(128), llvm::cl::Hidden};
  Option<int64_t> gpuWarpMinLength{
      *this, "gpu-warp-min-length",
      llvm::cl::desc("Shortest reduction given a warp per output (default "
                     "32)"),
      llvm::cl::init(32), llvm::cl::Hidden};
};

/// The pipeline and emitter settings `options` ask for.
CudaOptions toCudaOptions(const CudaTargetOptions &options);

/// Registers the CUDA target (see targets/common/Target.h).
void registerTarget();

/// The ptxas to use: `options.ptxas`, else $CUDA_HOME/bin/ptxas, else
/// /usr/local/cuda/bin/ptxas, else ptxas on PATH; "" when none exists.
std::string findPtxas(const CudaOptions &options);

/// libdevice.10.bc (the CUDA toolkit's math library, linked into the
/// kernels for exact fp32 exp, log, tanh, erf, ...): `options.libdevice`,
/// else under $CUDA_HOME or /usr/local/cuda; "" when none exists.
std::string findLibdevice(const CudaOptions &options);

/// Writes `<dir>/<name>.<chip>.ptx` per chip, `<name>.<chip>.cubin` when
/// ptxas is available (which also validates the PTX),
/// `<name>.schedule.json` (launches, buffers, workspace size), and the
/// artifact: `<name>.o`, `.h` and `.so` holding the images and launches
/// behind the `<name>_model` ABI constant (infer_abi_model.cuda). Fails
/// with an error naming the ONNX node of anything left on the host.
llvm::LogicalResult emitKernels(mlir::ModuleOp module,
                                const targets::ModelSignature &signature,
                                const CudaOptions &options,
                                llvm::StringRef outputDir,
                                llvm::StringRef sourceName);

} // namespace infer::cuda

#endif // INFER_TARGETS_CUDA_CUDATARGET_H
