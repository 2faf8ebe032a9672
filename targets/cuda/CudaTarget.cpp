//===- CudaTarget.cpp - the CUDA target in the registry -------------------===//

#include "targets/cuda/CudaTarget.h"
#include "targets/cuda/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

namespace infer::cuda {

CudaOptions toCudaOptions(const CudaTargetOptions &options) {
  CudaOptions cuda;
  if (!options.gpuArch.empty()) {
    cuda.chips.assign(options.gpuArch.begin(), options.gpuArch.end());
  }
  cuda.blockSize = options.gpuBlockSize;
  cuda.tunedKernels = options.gpuKernels == "tuned";
  cuda.tileMinBlocks = options.gpuTileMinBlocks;
  cuda.warpMinLength = options.gpuWarpMinLength;
  cuda.emitPtx = options.emit == "ptx";
  cuda.profile = options.profile;
  return cuda;
}

namespace {

class CudaTarget final : public targets::TargetWithOptions<CudaTargetOptions> {
public:
  StringRef getName() const override { return "cuda"; }
  StringRef getDescription() const override {
    return "NVIDIA GPUs: PTX/cubins + host schedule";
  }
  StringRef getDisplayName() const override { return "CUDA"; }
  std::string validateOptions() override {
    if (!options.emit.empty() && options.emit != "ptx") {
      return "--emit expects 'ptx', got '" + options.emit + "'";
    }
    for (const std::string &chip : options.gpuArch) {
      if (!StringRef(chip).starts_with("sm_")) {
        return "--gpu-arch expects an NVIDIA architecture such as sm_90 or "
               "sm_80, got '" +
               chip + "'";
      }
    }
    if (options.gpuKernels != "tuned" && options.gpuKernels != "simple") {
      return "--gpu-kernels expects 'tuned' or 'simple', got '" +
             options.gpuKernels + "'";
    }
    if (options.gpuBlockSize < 1 || options.gpuBlockSize > 1024) {
      return "--gpu-block-size must be between 1 and 1024";
    }
    return "";
  }

  void registerDialects(DialectRegistry &registry) const override {
    // Kernels: the GPU and NVVM dialects, the NVVM target that serializes
    // a GPU module to PTX, and the translations it runs.
    registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
    // convert-gpu-to-nvvm lowers kernel bodies through each dialect's
    // ConvertToLLVMPatternInterface.
    arith::registerConvertArithToLLVMInterface(registry);
    cf::registerConvertControlFlowToLLVMInterface(registry);
    registerConvertFuncToLLVMInterface(registry);
    index::registerConvertIndexToLLVMInterface(registry);
    registerConvertMathToLLVMInterface(registry);
    registerConvertMemRefToLLVMInterface(registry);
    registerConvertNVVMToLLVMInterface(registry);
    ub::registerConvertUBToLLVMInterface(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
  }

  void registerPasses() const override {
    registerCudaPasses();
    PassPipelineRegistration<CudaTargetOptions>(
        "cuda-codegen",
        "CUDA code generation: fused linalg on tensors -> one kernel per "
        "loop nest (blocks x threads), outlined into one GPU module, PTX per "
        "chip through NVVM; the host function keeps the launches",
        [](OpPassManager &pm, const CudaTargetOptions &options) {
          buildCudaCodegenPipeline(pm, toCudaOptions(options));
        });
  }

  LogicalResult
  buildCodegenPipeline(OpPassManager &pm, ModuleOp module,
                       const targets::ModelSignature &signature,
                       const targets::CompileOutput &output) override {
    CudaOptions cuda = toCudaOptions(options);
    if (options.gpuEmulation && !output.directory.empty()) {
      if (std::error_code ec =
              llvm::sys::fs::create_directories(output.directory)) {
        return module.emitError() << "cannot create the output directory '"
                                  << output.directory << "': " << ec.message();
      }
      cuda.emulationLibrary =
          output.directory + "/" + signature.name + ".emu.so";
    }
    buildCudaCodegenPipeline(pm, cuda);
    return success();
  }

  LogicalResult emit(ModuleOp module, const targets::ModelSignature &signature,
                     const targets::CompileOutput &output) override {
    return emitKernels(module, signature, toCudaOptions(options),
                       output.directory, output.sourceName);
  }
};

} // namespace

void registerTarget() {
  targets::registerTarget(std::make_unique<CudaTarget>());
}

} // namespace infer::cuda
