//===- Target.h - what a target tells the compiler --------------*- C++ -*-===//
//
// A target (cpu, cuda, hls, ...) registers one `Target`: its name, its
// options (one PassPipelineOptions struct, which is both the flags of
// `infer-compile --target=<name>` and the options of the `<name>-codegen`
// pipeline in infer-opt), what it accepts (dynamic shapes, run-time
// checks), its code generation pipeline and its emitter. The driver and
// infer-opt only ask the registry, so a new target is a new directory
// under targets/ and one line in targets/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_TARGET_H
#define INFER_TARGETS_COMMON_TARGET_H

#include "targets/common/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace infer::targets {

/// A target's options by name.
using OptionMap = decltype(llvm::cl::SubCommand::OptionsMap);

/// A target's options: a PassPipelineOptions struct whose options can be
/// listed (for infer-compile's flags and --help).
template <typename Derived>
struct TargetOptions : public mlir::PassPipelineOptions<Derived> {
  /// Every option by its name.
  const OptionMap &getOptionMap() const { return this->OptionsMap; }
};

/// Where a compile writes its artifacts.
struct CompileOutput {
  std::string directory;  // empty: IR is printed, no files are written
  std::string sourceName; // the model file's name, quoted in headers
  // false when the process ends right after the compile (infer-compile):
  // the target may then leave its large IR (the LLVM module of the weights
  // and code) to the OS instead of freeing it piece by piece, as clang does
  // (-disable-free); that teardown was 2 s of resnet18's 16.
  bool freeMemory = true;
};

class Target {
public:
  virtual ~Target();

  /// `--target=<name>`, and the `<name>-codegen` pipeline of infer-opt.
  virtual llvm::StringRef getName() const = 0;
  /// One line for `--target`'s help.
  virtual llvm::StringRef getDescription() const = 0;
  /// How diagnostics name it ("the CPU target ...").
  virtual llvm::StringRef getDisplayName() const = 0;

  /// The options (parsed from infer-compile's flags before any pipeline is
  /// built) and their names.
  virtual mlir::detail::PassOptions &getOptions() = 0;
  virtual const OptionMap &getOptionMap() = 0;
  /// Checks the options' values: an error message naming the flag, or "".
  virtual std::string validateOptions() { return ""; }

  /// Whether `?` dims may stay (the code reads its shapes at run time).
  virtual bool acceptsDynamicShapes() const { return false; }
  /// Whether the artifact reports failed run-time checks (the lowering
  /// emits them only then).
  virtual bool reportsRunTimeChecks() const { return true; }
  /// Whether the fuse phase fuses elementwise producers into window reads
  /// (pooling inputs); infer-prepare-entry marks the module
  /// `infer.windows_apart` when not. The CPU target keeps them apart, as
  /// its convolution kernels' epilogues, and its pooling loops vectorized;
  /// HLS saves a stage and a buffer by fusing.
  virtual bool fusesIntoWindows() const { return true; }
  /// The compiled entry function's symbol for a model named `name`.
  virtual std::string getEntryName(llvm::StringRef name) const {
    return (name + "_main").str();
  }

  /// Dialects and interfaces the target's pipeline creates.
  virtual void registerDialects(mlir::DialectRegistry &registry) const {}
  /// The target's passes and its `<name>-codegen` pipeline.
  virtual void registerPasses() const = 0;

  /// Adds to `pm` what turns `module`, fused linalg on tensors (the entry
  /// prepared, `signature` read from it), into the target's last IR.
  /// `output.directory` is empty when the IR is printed instead.
  virtual mlir::LogicalResult
  buildCodegenPipeline(mlir::OpPassManager &pm, mlir::ModuleOp module,
                       const ModelSignature &signature,
                       const CompileOutput &output) = 0;
  /// Writes the artifacts of the module the codegen pipeline produced into
  /// `output.directory` (which exists).
  virtual mlir::LogicalResult emit(mlir::ModuleOp module,
                                   const ModelSignature &signature,
                                   const CompileOutput &output) = 0;
};

/// A target whose options are `OptionsT` (a TargetOptions struct): the
/// options and their names come from it.
template <typename OptionsT>
class TargetWithOptions : public Target {
public:
  mlir::detail::PassOptions &getOptions() override { return options; }
  const OptionMap &getOptionMap() override { return options.getOptionMap(); }

protected:
  OptionsT options;
};

/// Adds `target` to the registry (once per name).
void registerTarget(std::unique_ptr<Target> target);

/// The registered target named `name`, or null.
Target *lookupTarget(llvm::StringRef name);

/// Every registered target, in registration order.
std::vector<Target *> getRegisteredTargets();

/// Registers every target this build has (see targets/AllTargets.cpp).
void registerAllTargets();

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_TARGET_H
