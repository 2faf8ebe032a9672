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
  std::string ptxas;                          // "" -> search CUDA_HOME, /usr/local/cuda
  std::string libdevice;                      // "" -> search the same places
};

/// Linalg on tensors -> a host function of kernel launches and one
/// gpu.binary holding a PTX image per chip.
void buildCudaCodegenPipeline(mlir::OpPassManager &pm,
                              const CudaOptions &options,
                              llvm::StringRef name);

/// Registers the CUDA passes and `cuda-codegen` for infer-opt.
void registerCudaPipelines();

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
