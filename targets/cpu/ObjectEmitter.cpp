//===- ObjectEmitter.cpp - LLVM dialect -> object, header, shared library -===//

#include "targets/cpu/CpuTarget.h"
#include "targets/common/OutputFile.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <fmt/core.h>

using namespace mlir;

namespace infer::cpu {

namespace {

/// The C type of an element in the generated header.
const char *cType(int32_t dtype) {
  switch (dtype) {
  case 1: return "float";
  case 11: return "double";
  case 2: case 9: return "uint8_t";
  case 3: return "int8_t";
  case 4: case 10: case 16: return "uint16_t";
  case 5: return "int16_t";
  case 6: return "int32_t";
  case 7: return "int64_t";
  case 12: return "uint32_t";
  case 13: return "uint64_t";
  default: return "void";
  }
}

const char *dtypeName(int32_t dtype) {
  switch (dtype) {
  case 1: return "float32";
  case 11: return "float64";
  case 10: return "float16";
  case 16: return "bfloat16";
  case 9: return "bool";
  case 2: return "uint8";
  case 3: return "int8";
  case 4: return "uint16";
  case 5: return "int16";
  case 6: return "int32";
  case 7: return "int64";
  case 12: return "uint32";
  case 13: return "uint64";
  default: return "unknown";
  }
}

/// A C identifier from an ONNX name.
std::string identifier(const std::string &name, const std::string &fallback) {
  std::string id;
  for (char c : name) {
    id.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  }
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) {
    id = fallback + (id.empty() ? "" : "_" + id);
  }
  return id;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i ? "," : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

/// Emits `int32_t <name>_main(ptr...)`, one bare pointer per buffer
/// (inputs, outputs, then the workspace) as the header declares, around the
/// compiled function (renamed `<name>_main.impl`, internal). The wrapper
/// passes a zeroed status word when the function takes one (run-time
/// checks) and returns it: 0, or k > 0 for the failed check errors[k-1].
/// MLIR's bare-pointer call convention cannot pass a multi-dimensional
/// zero-sized memref, so such a function keeps memref descriptors
/// (allocated and aligned pointer, offset, sizes, strides per buffer); the
/// wrapper then builds them from the static shapes.
FailureOr<llvm::Function *> bareEntry(llvm::Module &module, const ModelSignature &sig,
                                      std::string &error) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  std::vector<std::vector<int64_t>> shapes;
  for (const auto *list : {&sig.inputs, &sig.outputs}) {
    for (const TensorSignature &t : *list) {
      shapes.push_back(t.shape);
    }
  }
  shapes.push_back({static_cast<int64_t>(sig.workspaceSize)});
  size_t numBuffers = shapes.size();
  if (sig.hasStatus) {
    shapes.push_back({}); // memref<i32>
  }
  size_t descriptorArgs = 0;
  for (const auto &shape : shapes) {
    descriptorArgs += 3 + 2 * shape.size();
  }
  llvm::Function *impl = module.getFunction(sig.name + "_main");
  bool bare = impl && impl->arg_size() == shapes.size();
  if (!impl || (!bare && impl->arg_size() != descriptorArgs)) {
    error = "the entry function " + sig.name + "_main takes " +
            (impl ? std::to_string(impl->arg_size()) : "no") + " arguments, expected " +
            std::to_string(shapes.size()) +
            " (pointers to inputs, outputs, the workspace" +
            (sig.hasStatus ? " and the status" : "") + ") or their memref descriptors";
    return failure();
  }
  impl->setName(sig.name + "_main.impl");
  impl->setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *type = llvm::FunctionType::get(i32, std::vector<llvm::Type *>(numBuffers, ptr), false);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       sig.name + "_main", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  std::vector<llvm::Value *> pointers;
  for (size_t i = 0; i < numBuffers; ++i) {
    pointers.push_back(entry->getArg(i));
  }
  llvm::Value *status = nullptr;
  if (sig.hasStatus) {
    status = b.CreateAlloca(i32);
    b.CreateStore(llvm::ConstantInt::get(i32, 0), status);
    pointers.push_back(status);
  }
  std::vector<llvm::Value *> args;
  for (auto [p, shape] : llvm::zip(pointers, shapes)) {
    args.push_back(p);
    if (bare) {
      continue;
    }
    args.push_back(p);
    args.push_back(llvm::ConstantInt::get(i64, 0));
    for (int64_t size : shape) {
      args.push_back(llvm::ConstantInt::get(i64, size));
    }
    int64_t stride = 1;
    std::vector<int64_t> strides(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    for (int64_t st : strides) {
      args.push_back(llvm::ConstantInt::get(i64, st));
    }
  }
  b.CreateCall(impl, args);
  b.CreateRet(status ? b.CreateLoad(i32, status)
                     : static_cast<llvm::Value *>(llvm::ConstantInt::get(i32, 0)));
  return entry;
}

/// Adds `int32_t <name>_run(void *const *buffers)`, which unpacks the
/// buffers, calls `<name>_main` and returns its status.
FailureOr<llvm::Function *> addRun(llvm::Module &module,
                                   const ModelSignature &sig,
                                   std::string &error) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  FailureOr<llvm::Function *> entry = bareEntry(module, sig, error);
  if (failed(entry)) {
    return failure();
  }
  // Inputs, outputs, then the workspace.
  size_t numBuffers = sig.inputs.size() + sig.outputs.size() + 1;
  auto *runType = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr}, false);
  auto *run = llvm::Function::Create(runType, llvm::GlobalValue::ExternalLinkage,
                                     sig.name + "_run", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", run));
  std::vector<llvm::Value *> args;
  for (size_t i = 0; i < numBuffers; ++i) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptr, run->getArg(0), i);
    args.push_back(b.CreateLoad(ptr, slot));
  }
  b.CreateRet(b.CreateCall(*entry, args));
  return run;
}

/// Adds the `<name>_model` ABI constant (see runtime/include/infer/abi.h):
/// with `<name>_run` for CPU code, with `cuda` (the kernels and launches)
/// for CUDA models.
LogicalResult addAbi(llvm::Module &module, const ModelSignature &sig,
                     std::string &error, llvm::Constant *cuda = nullptr) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Constant *null = llvm::ConstantPointerNull::get(
      llvm::PointerType::getUnqual(ctx));
  llvm::Constant *run = null, *runDynamic = null;
  if (!cuda) {
    FailureOr<llvm::Function *> entry = sig.dynamic ? addDynamicEntry(module, sig, error)
                                                    : addRun(module, sig, error);
    if (failed(entry)) {
      return failure();
    }
    (sig.dynamic ? runDynamic : run) = *entry;
  }


  auto *tensorType = llvm::StructType::get(ctx, {ptr, i32, i32, ptr});
  auto stringConstant = [&](const std::string &text) -> llvm::Constant * {
    auto *init = llvm::ConstantDataArray::getString(ctx, text);
    return new llvm::GlobalVariable(module, init->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    sig.name + ".str");
  };
  auto tensorArray = [&](const std::vector<TensorSignature> &tensors,
                         const char *what) -> llvm::Constant * {
    std::vector<llvm::Constant *> entries;
    for (const TensorSignature &t : tensors) {
      std::vector<uint64_t> dims(t.shape.begin(), t.shape.end());
      llvm::Constant *shape = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
      if (!dims.empty()) {
        auto *init = llvm::ConstantDataArray::get(ctx, dims);
        shape = new llvm::GlobalVariable(module, init->getType(), true,
                                         llvm::GlobalValue::PrivateLinkage,
                                         init, sig.name + ".shape");
      }
      entries.push_back(llvm::ConstantStruct::get(
          tensorType, {stringConstant(t.name), llvm::ConstantInt::get(i32, t.dtype),
                       llvm::ConstantInt::get(i32, t.shape.size()), shape}));
    }
    auto *arrayType = llvm::ArrayType::get(tensorType, entries.size());
    return new llvm::GlobalVariable(module, arrayType, true,
                                    llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(arrayType, entries),
                                    sig.name + "." + what);
  };
  // The messages of the run-time checks: status k means errors[k-1].
  llvm::Constant *errors = null;
  if (!sig.errors.empty()) {
    std::vector<llvm::Constant *> messages;
    for (const std::string &message : sig.errors) {
      messages.push_back(stringConstant(message));
    }
    auto *arrayType = llvm::ArrayType::get(ptr, messages.size());
    errors = new llvm::GlobalVariable(module, arrayType, true,
                                      llvm::GlobalValue::PrivateLinkage,
                                      llvm::ConstantArray::get(arrayType, messages),
                                      sig.name + ".errors");
  }
  // The profile of a dynamic model's inputs: every input's dims in a row.
  auto profile = [&](std::vector<int64_t> TensorSignature::*field,
                     const char *what) -> llvm::Constant * {
    std::vector<uint64_t> dims;
    for (const TensorSignature &t : sig.inputs) {
      dims.insert(dims.end(), (t.*field).begin(), (t.*field).end());
    }
    if (!sig.dynamic || dims.empty()) {
      return null;
    }
    auto *init = llvm::ConstantDataArray::get(ctx, dims);
    return new llvm::GlobalVariable(module, init->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    sig.name + "." + what);
  };
  auto *modelType = llvm::StructType::get(
      ctx, {i32, i32, i32, i32, ptr, ptr, ptr, i64, ptr, ptr, ptr, ptr, ptr, ptr, ptr});
  auto *model = llvm::ConstantStruct::get(
      modelType,
      {llvm::ConstantInt::get(i32, 5), llvm::ConstantInt::get(i32, sig.inputs.size()),
       llvm::ConstantInt::get(i32, sig.outputs.size()),
       llvm::ConstantInt::get(i32, sig.errors.size()), stringConstant(sig.name),
       tensorArray(sig.inputs, "inputs"), tensorArray(sig.outputs, "outputs"),
       llvm::ConstantInt::get(i64, sig.workspaceSize), run, cuda ? cuda : null, errors,
       runDynamic, profile(&TensorSignature::min, "shape_min"),
       profile(&TensorSignature::opt, "shape_opt"),
       profile(&TensorSignature::max, "shape_max")});
  new llvm::GlobalVariable(module, modelType, true,
                           llvm::GlobalValue::ExternalLinkage, model,
                           sig.name + "_model");
  return success();
}

void optimize(llvm::Module &module, llvm::TargetMachine *tm, unsigned level) {
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

std::string headerText(const ModelSignature &sig, llvm::StringRef source) {
  std::string guard = "INFER_MODEL_" + identifier(sig.name, "m") + "_H";
  for (char &c : guard) {
    c = std::toupper(static_cast<unsigned char>(c));
  }
  std::string usage =
      sig.isCuda
          ? fmt::format(
                " * CUDA kernels (PTX per GPU architecture, cubins when ptxas "
                "was found)\n"
                " * and their launches: run through the runtime, which loads "
                "them with the\n"
                " * CUDA driver: pass &{0}_model to infer_model_from_abi\n"
                " * (infer/runtime.h). WORKSPACE_SIZE is device memory the "
                "runtime allocates.\n",
                sig.name)
          : fmt::format(
                " * Typed entry point (no runtime needed): {0}_main(inputs..., "
                "outputs...,\n"
                " * workspace) takes dense row-major buffers of the shapes "
                "below and scratch\n"
                " * memory of WORKSPACE_SIZE bytes, 64-byte aligned (NULL when "
                "0), which a run\n"
                " * may not share with a concurrent run. Bools are one byte,\n"
                " * float16/bfloat16 are uint16_t bit patterns. For the generic "
                "runtime API,\n"
                " * pass &{0}_model to infer_model_from_abi (infer/runtime.h).\n",
                sig.name);
  std::string h = fmt::format(
      "/* {name}.h: generated by infer-compile from {source}. Do not edit.\n"
      " *\n{usage}"
      " */\n#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n"
      "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n",
      fmt::arg("name", sig.name), fmt::arg("source", source.str()),
      fmt::arg("guard", guard), fmt::arg("usage", usage));
  std::string upper = identifier(sig.name, "m");
  for (char &c : upper) {
    c = std::toupper(static_cast<unsigned char>(c));
  }
  h += fmt::format("#define {}_NUM_INPUTS {}\n#define {}_NUM_OUTPUTS {}\n",
                   upper, sig.inputs.size(), upper, sig.outputs.size());
  if (sig.usesOpenMP) {
    h += fmt::format(
        "/* The code runs its matmuls and convolutions on OpenMP threads "
        "(LLVM's\n   runtime): link with -L{0} -lomp. OMP_NUM_THREADS sets "
        "the thread\n   count; compile with --parallel=none for code with "
        "no dependency. */\n#define {1}_USES_OPENMP 1\n",
        INFER_OPENMP_LIBRARY_DIR, upper);
  } else {
    h += fmt::format("#define {}_USES_OPENMP 0\n", upper);
  }
  h += fmt::format("/* Scratch memory for intermediate tensors, planned at "
                   "compile time:\n   bytes, to be 64-byte aligned. */\n"
                   "#define {}_WORKSPACE_SIZE {}\n#define {}_DYNAMIC {}\n\n",
                   upper, sig.workspaceSize, upper, sig.dynamic ? 1 : 0);
  std::vector<std::string> params;
  auto describe = [&](const std::vector<TensorSignature> &tensors,
                      const char *what, bool isConst) {
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorSignature &t = tensors[i];
      int64_t count = 1;
      for (int64_t d : t.shape) {
        count *= d;
      }
      std::string param = identifier(t.name, std::string(what) + std::to_string(i));
      if (t.isDynamic()) {
        std::string range = isConst ? fmt::format(", from {} to {}, opt {}", shapeText(t.min),
                                                  shapeText(t.max), shapeText(t.opt))
                                    : "";
        h += fmt::format("/* {} {} '{}': {} {} (-1: sized at run time{}) */\n", what, i,
                         t.name, dtypeName(t.dtype), shapeText(t.shape), range);
      } else {
        h += fmt::format("/* {} {} '{}': {} {} ({} elements) */\n", what, i,
                         t.name, dtypeName(t.dtype), shapeText(t.shape), count);
      }
      params.push_back(fmt::format("{}{} *{}", isConst ? "const " : "",
                                   cType(t.dtype), param));
    }
  };
  describe(sig.inputs, "input", true);
  describe(sig.outputs, "output", false);
  if (sig.isCuda) {
    h += fmt::format("struct infer_abi_model;\nextern const struct "
                     "infer_abi_model {}_model;\n\n", sig.name);
    h += "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
    return h;
  }
  params.push_back("void *workspace");
  if (sig.dynamic) {
    h += fmt::format(
        "/* The generic variant for dynamic dims: inputs[i] points at input i, "
        "input_shapes\n   holds every input's dims in a row (within the "
        "ranges above). Buffers of\n   run-time size come from `allocator` "
        "(NULL: aligned_alloc/free), the outputs\n   too: out_data[i] is "
        "output i's data, out_allocations[i] its buffer (release\n   it as "
        "infer_abi_buffer_header_t in infer/abi.h says), out_shapes gets "
        "every\n   output's dims in a row. Returns 0, or k > 0 when a run-time "
        "check failed:\n   {0}_model.errors[k-1]. The runtime API "
        "(infer_model_run) does all of this,\n   checks the shapes and caches "
        "the buffers between runs. */\n"
        "struct infer_abi_allocator;\n"
        "int32_t {0}_main(void *const *inputs, const int64_t *input_shapes, "
        "void *workspace,\n                void **out_data, void "
        "**out_allocations, int64_t *out_shapes,\n                struct "
        "infer_abi_allocator *allocator);\n\n",
        sig.name);
    h += fmt::format("struct infer_abi_model;\nextern const struct "
                     "infer_abi_model {}_model;\n\n", sig.name);
    h += "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
    return h;
  }
  if (!sig.errors.empty()) {
    h += fmt::format("/* Returns 0, or k > 0 when a run-time check failed (the "
                     "inputs were invalid;\n   the outputs are then "
                     "meaningless): {}_model.errors[k-1] says which. */\n",
                     sig.name);
    for (size_t k = 0; k < sig.errors.size(); ++k) {
      h += fmt::format("/*   {}: {} */\n", k + 1, sig.errors[k]);
    }
  } else {
    h += "/* Returns 0 (this model has no run-time checks). */\n";
  }
  h += fmt::format("int32_t {}_main(", sig.name);
  for (size_t i = 0; i < params.size(); ++i) {
    h += (i ? ", " : "") + params[i];
  }
  h += fmt::format(");\n\n/* Runs with one pointer per input, then per output, "
                   "then the workspace;\n   returns what {}_main returns. */\n",
                   sig.name);
  h += fmt::format("int32_t {}_run(void *const *buffers);\n\n", sig.name);
  h += fmt::format("struct infer_abi_model;\nextern const struct "
                   "infer_abi_model {}_model;\n\n", sig.name);
  h += "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return h;
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

} // namespace

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const CpuOptions &options, std::string &error) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  bool host = options.targetTriple.empty();
  llvm::Triple triple(host ? llvm::sys::getDefaultTargetTriple()
                           : options.targetTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
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
  // Fuse multiply-adds (as every inference runtime does); results stay
  // within the float tolerances the backend suite checks.
  targetOptions.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_));
  if (!tm) {
    error = "cannot create a target machine for " + triple.str() + " (cpu " +
            cpu + ")";
  }
  return tm;
}

unsigned vectorBits(const CpuOptions &options) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm) {
    return 128;
  }
  const llvm::MCSubtargetInfo *info = tm->getMCSubtargetInfo();
  if (info->checkFeatures("+avx512f")) {
    return 512;
  }
  if (info->checkFeatures("+avx")) {
    return 256;
  }
  return 128;
}

/// Writes `objPath`, the object code of `llvmModule` for `tm`.
static LogicalResult writeObject(llvm::Module &llvmModule,
                                 llvm::TargetMachine &tm,
                                 const std::string &objPath, Location loc) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile)) {
    return emitError(loc) << "the target cannot emit object files";
  }
  codegen.run(llvmModule);
  return writeFile(objPath, llvm::StringRef(object.data(), object.size()),
                   loc);
}

/// Links `objPath` into the shared library `soPath` with the system's cc
/// (libm, and LLVM's OpenMP runtime when `openmp`).
static LogicalResult linkShared(const std::string &objPath,
                                const std::string &soPath, bool openmp,
                                Location loc) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc) {
    return emitError(loc) << "no C compiler driver ('cc') to link " << soPath;
  }
  // The linker writes where it is told: remove whatever entry (a symlink,
  // a hard link) is there first, so it never writes through one.
  clearOutputPath(soPath);
  llvm::SmallVector<llvm::StringRef> args = {*cc, "-shared", "-o", soPath,
                                             objPath, "-lm"};
  std::string openmpDir = std::string("-L") + INFER_OPENMP_LIBRARY_DIR;
  std::string openmpRpath =
      std::string("-Wl,-rpath,") + INFER_OPENMP_LIBRARY_DIR;
  if (openmp) {
    args.append({openmpDir, "-lomp", openmpRpath});
  }
  std::string linkError;
  int rc = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0,
                                     &linkError);
  if (rc != 0) {
    return emitError(loc) << "linking " << soPath << " failed"
                          << (linkError.empty() ? "" : ": " + linkError);
  }
  return success();
}

/// Writes `<dir>/<name>.o` from `llvmModule`, the header, and (on the host)
/// `<name>.so` linked from the object.
static LogicalResult writeArtifacts(llvm::Module &llvmModule,
                                    llvm::TargetMachine &target,
                                    const ModelSignature &sig, bool host,
                                    StringRef outputDir, StringRef sourceName,
                                    Location loc) {
  std::string base = (outputDir + "/" + sig.name).str();
  if (failed(writeObject(llvmModule, target, base + ".o", loc)) ||
      failed(writeFile(base + ".h", headerText(sig, sourceName), loc))) {
    return failure();
  }
  if (!host) {
    return success(); // A cross-compiled object: no loadable library here.
  }
  // The same code as a shared library for infer-run and infer-bench.
  return linkShared(base + ".o", base + ".so", sig.usesOpenMP, loc);
}

LogicalResult emitArtifacts(ModuleOp module, const ModelSignature &signature,
                            const CpuOptions &options, StringRef outputDir,
                            StringRef sourceName) {
  Location loc = module.getLoc();
  ModelSignature sig = signature;
  auto workspace = module->getAttrOfType<IntegerAttr>("infer.workspace_size");
  if (!workspace) {
    return emitError(loc) << "the module has no planned workspace "
                             "(infer-cpu-plan-workspace did not run)";
  }
  sig.workspaceSize = workspace.getInt();
  sig.hasStatus = readCheckMessages(module, sig);
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  registerOpenMPDialectTranslation(*module->getContext());

  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm) {
    return emitError(loc) << error;
  }
  llvm::Triple triple = tm->getTargetTriple();
  bool host = options.targetTriple.empty();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, sig.name);
  if (!llvmModule) {
    return emitError(loc) << "translation to LLVM IR failed";
  }
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(tm->createDataLayout());
  // On AVX-512 machines use the full vector width (LLVM defaults to 256).
  if (tm->getMCSubtargetInfo()->checkFeatures("+avx512f")) {
    for (llvm::Function &fn : *llvmModule) {
      if (!fn.isDeclaration()) {
        fn.addFnAttr("prefer-vector-width", "512");
      }
    }
  }
  if (failed(addAbi(*llvmModule, sig, error))) {
    return emitError(loc) << error;
  }
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(*llvmModule, &verifyStream)) {
    return emitError(loc) << "generated LLVM IR is invalid: " << verifyErrors;
  }
  optimize(*llvmModule, tm.get(), options.optLevel);
  sig.usesOpenMP = llvmModule->getFunction("__kmpc_fork_call") != nullptr;
  return writeArtifacts(*llvmModule, *tm, sig, host, outputDir, sourceName,
                        loc);
}

LogicalResult emitDataArtifacts(
    const ModelSignature &signature, const CpuOptions &options,
    StringRef outputDir, StringRef sourceName, Location loc,
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
  if (failed(addAbi(llvmModule, signature, error, descriptor))) {
    return emitError(loc) << error;
  }
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(llvmModule, &verifyStream)) {
    return emitError(loc) << "generated LLVM IR is invalid: " << verifyErrors;
  }
  return writeArtifacts(llvmModule, *tm, signature, options.targetTriple.empty(),
                        outputDir, sourceName, loc);
}

LogicalResult emitHostLibrary(ModuleOp module, StringRef soPath) {
  Location loc = module.getLoc();
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm =
      createTargetMachine(CpuOptions{}, error);
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
  optimize(*llvmModule, tm.get(), 2);
  std::string objPath = (soPath + ".o").str();
  LogicalResult built = writeObject(*llvmModule, *tm, objPath, loc);
  if (succeeded(built)) {
    built = linkShared(objPath, soPath.str(), /*openmp=*/false, loc);
  }
  llvm::sys::fs::remove(objPath);
  return built;
}

} // namespace infer::cpu
