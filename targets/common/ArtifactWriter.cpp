//===- ArtifactWriter.cpp - LLVM IR -> object, header, shared library -----===//

#include "targets/common/ArtifactWriter.h"
#include "targets/common/AbiConstant.h"
#include "targets/common/ArtifactHeader.h"
#include "targets/common/OutputFile.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace infer::targets {

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const MachineOptions &options, std::string &error) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  bool host = options.targetTriple.empty();
  llvm::Triple triple(host ? llvm::sys::getDefaultTargetTriple()
                           : options.targetTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    error = "unknown target triple '" + triple.str() + "': " + error;
    return nullptr;
  }
  std::string cpu = options.targetCpu;
  std::string features;
  if (cpu == "native") {
    if (!host) {
      error = "--target-cpu=native needs the host triple; name a CPU for " +
              triple.str();
      return nullptr;
    }
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures list;
    for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures()) {
      list.AddFeature(feature, enabled);
    }
    features = list.getString();
  }
  llvm::TargetOptions targetOptions;
  // Fuse a multiply and an add only where the IR says so: the kernels'
  // explicit FMAs and the reduction bodies infer-contract-reductions marks.
  // An elementwise a * b + c rounds twice, as ONNX Runtime computes it; a
  // value that picks a quantization range at run time depends on that ulp.
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_));
  if (!tm) {
    error = "cannot create a target machine for " + triple.str() + " (cpu " +
            cpu + ")";
  }
  return tm;
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine *tm,
                    unsigned level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel opt = level >= 3   ? llvm::OptimizationLevel::O3
                                : level == 2 ? llvm::OptimizationLevel::O2
                                : level == 1 ? llvm::OptimizationLevel::O1
                                             : llvm::OptimizationLevel::O0;
  llvm::ModulePassManager mpm = level == 0
                                    ? pb.buildO0DefaultPipeline(opt)
                                    : pb.buildPerModuleDefaultPipeline(opt);
  mpm.run(module, mam);
}

/// Writes `data` to a new file that then replaces `path`: an existing
/// symlink or hard link there is replaced, never written through.
LogicalResult writeFile(const std::string &path, llvm::StringRef data,
                        Location loc) {
  if (llvm::Error error = writeOutputFile(path, data)) {
    return emitError(loc) << "cannot write '" << path
                          << "': " << llvm::toString(std::move(error));
  }
  return success();
}

/// Writes `objPath`, the object code of `llvmModule` for `tm`.
LogicalResult writeObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                          const std::string &objPath, Location loc) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile)) {
    return emitError(loc) << "the target cannot emit object files";
  }
  codegen.run(llvmModule);
  return writeFile(objPath, llvm::StringRef(object.data(), object.size()), loc);
}

/// Links `objPath` into the shared library `soPath` with the system's cc
/// (libm, and LLVM's OpenMP runtime when `openmp`).
LogicalResult linkShared(const std::string &objPath, const std::string &soPath,
                         bool openmp, Location loc) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc) {
    return emitError(loc) << "no C compiler driver ('cc') to link " << soPath;
  }
  // The linker writes where it is told: remove whatever entry (a symlink,
  // a hard link) is there first, so it never writes through one.
  clearOutputPath(soPath);
  llvm::SmallVector<llvm::StringRef> args = {*cc,    "-shared", "-o",
                                             soPath, objPath,   "-lm"};
  std::string openmpDir = std::string("-L") + INFER_OPENMP_LIBRARY_DIR;
  std::string openmpRpath =
      std::string("-Wl,-rpath,") + INFER_OPENMP_LIBRARY_DIR;
  if (openmp) {
    args.append({openmpDir, "-lomp", openmpRpath});
  }
  std::string linkError;
  int rc =
      llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &linkError);
  if (rc != 0) {
    return emitError(loc) << "linking " << soPath << " failed"
                          << (linkError.empty() ? "" : ": " + linkError);
  }
  return success();
}

/// Writes `<dir>/<name>.o` from `llvmModule`, the header, and (on the host)
/// `<name>.so` linked from the object.
LogicalResult writeArtifacts(llvm::Module &llvmModule,
                             llvm::TargetMachine &target,
                             const ModelSignature &sig, StringRef header,
                             bool host, StringRef outputDir, Location loc) {
  std::string base = (outputDir + "/" + sig.name).str();
  if (failed(writeObject(llvmModule, target, base + ".o", loc)) ||
      failed(writeFile(base + ".h", header, loc))) {
    return failure();
  }
  if (!host) {
    return success(); // A cross-compiled object: no loadable library here.
  }
  // The same code as a shared library for infer-run and infer-bench.
  return linkShared(base + ".o", base + ".so", sig.usesOpenMP, loc);
}

LogicalResult emitDataArtifacts(
    const ModelSignature &signature, const MachineOptions &options,
    StringRef outputDir, StringRef sourceName, StringRef usage, Location loc,
    llvm::function_ref<llvm::Constant *(llvm::Module &)> addDescriptor) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm) {
    return emitError(loc) << error;
  }
  llvm::LLVMContext llvmContext;
  llvm::Module llvmModule(signature.name, llvmContext);
  llvmModule.setTargetTriple(tm->getTargetTriple());
  llvmModule.setDataLayout(tm->createDataLayout());
  llvm::Constant *descriptor = addDescriptor(llvmModule);
  addAbiConstant(llvmModule, signature,
                 AbiEntryPoints{nullptr, nullptr, descriptor});
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(llvmModule, &verifyStream)) {
    return emitError(loc) << "generated LLVM IR is invalid: " << verifyErrors;
  }
  std::string header =
      headerText(signature, sourceName, usage,
                 [](std::vector<std::string> &) { return std::string(); });
  return writeArtifacts(llvmModule, *tm, signature, header,
                        options.targetTriple.empty(), outputDir, loc);
}

LogicalResult emitHostLibrary(ModuleOp module, StringRef soPath) {
  Location loc = module.getLoc();
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm =
      createTargetMachine(MachineOptions{}, error);
  if (!tm) {
    return emitError(loc) << error;
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "kernels");
  if (!llvmModule) {
    return emitError(loc) << "translation to LLVM IR failed";
  }
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  optimizeModule(*llvmModule, tm.get(), 2);
  std::string objPath = (soPath + ".o").str();
  LogicalResult built = writeObject(*llvmModule, *tm, objPath, loc);
  if (succeeded(built)) {
    built = linkShared(objPath, soPath.str(), /*openmp=*/false, loc);
  }
  llvm::sys::fs::remove(objPath);
  return built;
}

} // namespace infer::targets
