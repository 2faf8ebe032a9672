//===- CpuTarget.cpp - the CPU target in the registry ---------------------===//

#include "targets/cpu/CpuTarget.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace infer::cpu {

namespace {

/// The code generation knobs `options` ask for (the vector width from the
/// target CPU unless given).
CodegenOptions codegenOptions(const CpuTargetOptions &options) {
  CodegenOptions codegen;
  CpuOptions machine;
  machine.targetTriple = options.targetTriple;
  machine.targetCpu = options.targetCpu;
  codegen.vectorBits = options.vectorBits;
  if (codegen.vectorBits == 0) {
    codegen.vectorBits = vectorBits(machine);
  }
  codegen.l2Bytes = options.l2CacheKib ? int64_t(options.l2CacheKib) * 1024
                                       : l2CacheBytes(machine);
  codegen.byteDotBits =
      std::min(byteDotBits(machine), std::max(codegen.vectorBits, 256u));
  codegen.bf16DotBits =
      std::min(bf16DotBits(machine), std::max(codegen.vectorBits, 256u));
  codegen.wordDot = hasWordDot(machine);
  codegen.parallel =
      options.parallel == "openmp"    ? CodegenOptions::Parallel::OpenMP
      : options.parallel == "runtime" ? CodegenOptions::Parallel::Runtime
                                      : CodegenOptions::Parallel::None;
  codegen.dynamicShapes = options.dynamicShapes;
  codegen.approximateMath = options.math == "polynomial";
  codegen.profile = options.profile;
  codegen.winograd = options.winograd;
  return codegen;
}

class CpuTarget final : public targets::TargetWithOptions<CpuTargetOptions> {
public:
  StringRef getName() const override { return "cpu"; }
  StringRef getDescription() const override {
    return "x86-64/AArch64 object + C header";
  }
  StringRef getDisplayName() const override { return "CPU"; }
  std::string validateOptions() override {
    if (options.parallel != "runtime" && options.parallel != "openmp" &&
        options.parallel != "none") {
      return "--parallel must be 'runtime', 'openmp' or 'none', got '" +
             options.parallel + "'";
    }
    if (options.math != "polynomial" && options.math != "libm") {
      return "--math must be 'polynomial' or 'libm', got '" + options.math +
             "'";
    }
    if (options.profile && !options.targetTriple.empty() &&
        !llvm::Triple(options.targetTriple).isX86()) {
      return "--profile reads the x86 time-stamp counter; target '" +
             options.targetTriple + "' has none the runtime can read";
    }
    if (options.l2CacheKib != 0 && options.l2CacheKib < 64) {
      return "--l2-cache-kib must be 64 or more (or 0: the target's own)";
    }
    unsigned bits = options.vectorBits;
    if (bits != 0 && bits != 128 && bits != 256 && bits != 512) {
      return "--vector-bits must be 128, 256 or 512";
    }
    return "";
  }
  bool acceptsDynamicShapes() const override { return true; }
  bool fusesIntoWindows() const override { return false; }

  void registerDialects(DialectRegistry &registry) const override {
    // The parallel loops' form once converted (for infer-opt's lit tests).
    registry.insert<omp::OpenMPDialect>();
  }

  void registerPasses() const override {
    registerCpuPasses();
    PassPipelineRegistration<CpuTargetOptions>(
        "cpu-codegen",
        "CPU code generation: fused linalg on tensors -> bufferized loops "
        "and register-tiled contraction kernels -> LLVM dialect "
        "(bare-pointer entry points)",
        [](OpPassManager &pm, const CpuTargetOptions &options) {
          buildCpuCodegenPipeline(pm, codegenOptions(options));
        });
  }

  LogicalResult buildCodegenPipeline(OpPassManager &pm, ModuleOp module,
                                     const targets::ModelSignature &signature,
                                     const targets::CompileOutput &) override {
    CodegenOptions codegen = codegenOptions(options);
    codegen.dynamicShapes = signature.dynamic;
    if (codegen.profile && signature.dynamic) {
      return module.emitError("--profile needs static shapes: give every "
                              "dynamic input a --shape");
    }
    buildCpuCodegenPipeline(pm, codegen);
    return success();
  }

  LogicalResult emit(ModuleOp module, const targets::ModelSignature &signature,
                     const targets::CompileOutput &output) override {
    CpuOptions machine;
    machine.targetTriple = options.targetTriple;
    machine.targetCpu = options.targetCpu;
    return emitArtifacts(module, signature, machine, output.directory,
                         output.sourceName, output.freeMemory);
  }
};

} // namespace

void registerTarget() {
  targets::registerTarget(std::make_unique<CpuTarget>());
}

} // namespace infer::cpu
