//===- HlsTarget.cpp - the HLS target in the registry ---------------------===//

#include "targets/hls/HlsTarget.h"
#include "targets/hls/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace infer::hls {

namespace {

HlsOptions toHlsOptions(const HlsTargetOptions &options) {
  HlsOptions hls;
  hls.clockNs = options.clockNs;
  hls.part = options.part;
  hls.parallelism = options.parallelism;
  hls.profile = options.profile;
  return hls;
}

class HlsTarget final : public targets::TargetWithOptions<HlsTargetOptions> {
public:
  StringRef getName() const override { return "hls"; }
  StringRef getDescription() const override {
    return "FPGA: Vitis-style HLS C++ project";
  }
  StringRef getDisplayName() const override { return "HLS"; }
  std::string validateOptions() override {
    if (options.clockNs <= 0 || options.parallelism < 1) {
      return "--hls-clock-ns must be positive and --hls-parallelism at "
             "least 1";
    }
    return "";
  }
  // The HLS artifact has no way to report failed run-time checks yet.
  bool reportsRunTimeChecks() const override { return false; }
  // The top function is the model's name.
  std::string getEntryName(StringRef name) const override { return name.str(); }

  void registerPasses() const override {
    registerHlsPasses();
    PassPipelineRegistration<HlsTargetOptions>(
        "hls-codegen",
        "HLS code generation: fused linalg on tensors -> loops on static "
        "arrays, one function per layer, PIPELINE/UNROLL/ARRAY_PARTITION/"
        "DATAFLOW chosen as attributes, checked for the C++ emitter",
        [](OpPassManager &pm, const HlsTargetOptions &options) {
          buildHlsCodegenPipeline(pm, toHlsOptions(options), /*top=*/"");
        });
  }

  LogicalResult buildCodegenPipeline(OpPassManager &pm, ModuleOp module,
                                     const targets::ModelSignature &signature,
                                     const targets::CompileOutput &) override {
    buildHlsCodegenPipeline(pm, toHlsOptions(options), signature.name);
    return success();
  }

  LogicalResult emit(ModuleOp module, const targets::ModelSignature &signature,
                     const targets::CompileOutput &output) override {
    return emitProject(module, signature, toHlsOptions(options),
                       output.directory, output.sourceName, &llvm::outs());
  }
};

} // namespace

void registerTarget() {
  targets::registerTarget(std::make_unique<HlsTarget>());
}

} // namespace infer::hls
