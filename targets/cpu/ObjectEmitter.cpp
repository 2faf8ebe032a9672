//===- ObjectEmitter.cpp - LLVM dialect -> object, header, shared library -===//

#include "targets/common/AbiConstant.h"
#include "targets/common/ArtifactHeader.h"
#include "targets/common/ArtifactWriter.h"
#include "targets/cpu/CpuTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Target/TargetMachine.h"

#include <fmt/core.h>

using namespace mlir;
using namespace infer::targets;

namespace infer::cpu {

namespace {

/// Emits `int32_t <name>_main(ptr...)`, one bare pointer per buffer
/// (inputs, outputs, then the workspace) as the header declares, around the
/// compiled function (renamed `<name>_main.impl`, internal). The wrapper
/// passes a zeroed status word when the function takes one (run-time
/// checks) and returns it: 0, or k > 0 for the failed check errors[k-1].
/// MLIR's bare-pointer call convention cannot pass a multi-dimensional
/// zero-sized memref, so such a function keeps memref descriptors
/// (allocated and aligned pointer, offset, sizes, strides per buffer); the
/// wrapper then builds them from the static shapes.
FailureOr<llvm::Function *>
bareEntry(llvm::Module &module, const ModelSignature &sig, std::string &error) {
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
            (impl ? std::to_string(impl->arg_size()) : "no") +
            " arguments, expected " + std::to_string(shapes.size()) +
            " (pointers to inputs, outputs, the workspace" +
            (sig.hasStatus ? " and the status" : "") +
            ") or their memref descriptors";
    return failure();
  }
  impl->setName(sig.name + "_main.impl");
  impl->setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *type = llvm::FunctionType::get(
      i32, std::vector<llvm::Type *>(numBuffers, ptr), false);
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
  b.CreateRet(status
                  ? b.CreateLoad(i32, status)
                  : static_cast<llvm::Value *>(llvm::ConstantInt::get(i32, 0)));
  return entry;
}

/// Adds `int32_t <name>_run(void *const *buffers)`, which unpacks the
/// buffers, calls `<name>_main` and returns its status.
FailureOr<llvm::Function *>
addRun(llvm::Module &module, const ModelSignature &sig, std::string &error) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  FailureOr<llvm::Function *> entry = bareEntry(module, sig, error);
  if (failed(entry)) {
    return failure();
  }
  // Inputs, outputs, then the workspace.
  size_t numBuffers = sig.inputs.size() + sig.outputs.size() + 1;
  auto *runType =
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr}, false);
  auto *run = llvm::Function::Create(
      runType, llvm::GlobalValue::ExternalLinkage, sig.name + "_run", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", run));
  std::vector<llvm::Value *> args;
  for (size_t i = 0; i < numBuffers; ++i) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptr, run->getArg(0), i);
    args.push_back(b.CreateLoad(ptr, slot));
  }
  b.CreateRet(b.CreateCall(*entry, args));
  return run;
}

/// Adds `infer_abi_executor_t *<name>_set_executor(infer_abi_executor_t *)`
/// when the code dispatches its parallel loops to an executor (the
/// thread-local infer-cpu-parallel-to-runtime reads): it sets the calling
/// thread's executor and returns the one set before. Null otherwise.
llvm::Function *addSetExecutor(llvm::Module &module,
                               const ModelSignature &sig) {
  llvm::GlobalVariable *slot =
      module.getGlobalVariable("__infer_executor", /*AllowInternal=*/true);
  if (!slot) {
    return nullptr;
  }
  llvm::Type *ptr = llvm::PointerType::getUnqual(module.getContext());
  auto *set = llvm::Function::Create(llvm::FunctionType::get(ptr, {ptr}, false),
                                     llvm::GlobalValue::ExternalLinkage,
                                     sig.name + "_set_executor", module);
  llvm::IRBuilder<> b(
      llvm::BasicBlock::Create(module.getContext(), "entry", set));
  llvm::Value *address = b.CreateThreadLocalAddress(slot);
  llvm::Value *previous = b.CreateLoad(ptr, address);
  b.CreateStore(set->getArg(0), address);
  b.CreateRet(previous);
  return set;
}

/// The header's usage paragraph and entry points of CPU code.
std::string cpuHeader(const ModelSignature &sig, llvm::StringRef source) {
  std::string usage = fmt::format(
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
  return headerText(sig, source, usage, [&](std::vector<std::string> &params) {
    std::string h;
    params.push_back("void *workspace");
    if (sig.usesExecutor) {
      h += fmt::format(
          "/* Threads: the code splits its matmuls and convolutions into "
          "tasks for the\n   executor set for the calling thread "
          "(infer_abi_executor_t in infer/abi.h;\n   the runtime sets its "
          "thread pool) and runs them itself when none is set.\n   Sets the "
          "calling thread's executor (NULL: none); returns the previous "
          "one. */\nstruct infer_abi_executor;\nstruct infer_abi_executor "
          "*{0}_set_executor(struct infer_abi_executor *executor);\n\n",
          sig.name);
    }
    if (sig.dynamic) {
      h += fmt::format(
          "/* The generic variant for dynamic dims: inputs[i] points at input "
          "i, "
          "input_shapes\n   holds every input's dims in a row (within the "
          "ranges above). Buffers of\n   run-time size come from `allocator` "
          "(NULL: aligned_alloc/free), the outputs\n   too: out_data[i] is "
          "output i's data, out_allocations[i] its buffer (release\n   it as "
          "infer_abi_buffer_header_t in infer/abi.h says), out_shapes gets "
          "every\n   output's dims in a row. Returns 0, or k > 0 when a "
          "run-time "
          "check failed:\n   {0}_model.errors[k-1]. The runtime API "
          "(infer_model_run) does all of this,\n   checks the shapes and "
          "caches "
          "the buffers between runs. */\n"
          "struct infer_abi_allocator;\n"
          "int32_t {0}_main(void *const *inputs, const int64_t *input_shapes, "
          "void *workspace,\n                void **out_data, void "
          "**out_allocations, int64_t *out_shapes,\n                struct "
          "infer_abi_allocator *allocator);\n\n",
          sig.name);
      return h;
    }
    if (!sig.errors.empty()) {
      h += fmt::format(
          "/* Returns 0, or k > 0 when a run-time check failed (the "
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
    h += fmt::format(
        ");\n\n/* Runs with one pointer per input, then per output, "
        "then the workspace;\n   returns what {}_main returns. */\n",
        sig.name);
    h += fmt::format("int32_t {}_run(void *const *buffers);\n\n", sig.name);
    return h;
  });
}

/// Gives every constant global of a multi-dimensional array type (a
/// weight) the flat array type of its elements, and its value the 1-D view
/// of the same data. Nested arrays become one LLVM constant per innermost
/// row, each uniqued by its bytes: resnet18's 3x3 filters alone made
/// millions (a tenth of its compile time). The globals are only addressed
/// through opaque pointers, so the element offsets are unchanged.
void flattenConstantGlobals(ModuleOp module) {
  module.walk([](LLVM::GlobalOp global) {
    auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
    if (!array || !isa<LLVM::LLVMArrayType>(array.getElementType())) {
      return;
    }
    auto value = dyn_cast_or_null<ElementsAttr>(global.getValueOrNull());
    auto type = value ? dyn_cast<RankedTensorType>(value.getType())
                      : RankedTensorType();
    if (!type || !type.hasStaticShape() || type.getRank() < 2) {
      return;
    }
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    Attribute flat;
    if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      flat = dense.reshape(flatType);
    } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
      flat = DenseResourceElementsAttr::get(flatType, resource.getRawHandle());
    } else {
      return;
    }
    Type element = array;
    while (auto inner = dyn_cast<LLVM::LLVMArrayType>(element)) {
      element = inner.getElementType();
    }
    global.setGlobalTypeAttr(TypeAttr::get(
        LLVM::LLVMArrayType::get(element, type.getNumElements())));
    global.setValueAttr(flat);
  });
}

} // namespace

namespace {

/// Whether the target `options` name has every one of `features`
/// ("+avx512f,+avx512vl"); false when it cannot be created.
bool hasFeatures(const CpuOptions &options, StringRef features) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  return tm && tm->getMCSubtargetInfo()->checkFeatures(features);
}

} // namespace

unsigned vectorBits(const CpuOptions &options) {
  if (hasFeatures(options, "+avx512f")) {
    return 512;
  }
  return hasFeatures(options, "+avx") ? 256 : 128;
}

unsigned byteDotBits(const CpuOptions &options) {
  if (hasFeatures(options, "+avx512vnni,+avx512vl")) {
    return 512;
  }
  return hasFeatures(options, "+avxvnni") ? 256 : 0;
}

unsigned bf16DotBits(const CpuOptions &options) {
  return hasFeatures(options, "+avx512bf16,+avx512vl") ? 512 : 0;
}

bool hasWordDot(const CpuOptions &options) {
  return hasFeatures(options, "+avx2");
}

LogicalResult emitArtifacts(ModuleOp module, const ModelSignature &signature,
                            const CpuOptions &options, StringRef outputDir,
                            StringRef sourceName, bool freeMemory) {
  Location loc = module.getLoc();
  ModelSignature sig = signature;
  auto workspace = module->getAttrOfType<IntegerAttr>("infer.workspace_size");
  if (!workspace) {
    return emitError(loc) << "the module has no planned workspace "
                             "(infer-plan-workspace did not run)";
  }
  sig.workspaceSize = workspace.getInt();
  sig.hasStatus = readCheckMessages(module, sig);
  readKernelProfile(module, sig);
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
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  flattenConstantGlobals(module);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext, sig.name);
  // Freeing the module (the weights as constants) and its context takes
  // seconds; a process about to exit leaves that to the OS.
  llvm::scope_exit bury([&] {
    if (!freeMemory) {
      llvm::BuryPointer(std::move(llvmModule));
      llvm::BuryPointer(std::move(llvmContext));
    }
  });
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
  FailureOr<llvm::Function *> entry =
      sig.dynamic ? addDynamicEntry(*llvmModule, sig, error)
                  : addRun(*llvmModule, sig, error);
  if (failed(entry)) {
    return emitError(loc) << error;
  }
  AbiEntryPoints entries;
  (sig.dynamic ? entries.runDynamic : entries.run) = *entry;
  entries.setExecutor = addSetExecutor(*llvmModule, sig);
  sig.usesExecutor = entries.setExecutor != nullptr;
  addAbiConstant(*llvmModule, sig, entries);
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(*llvmModule, &verifyStream)) {
    return emitError(loc) << "generated LLVM IR is invalid: " << verifyErrors;
  }
  optimizeModule(*llvmModule, tm.get(), options.optLevel);
  sig.usesOpenMP = llvmModule->getFunction("__kmpc_fork_call") != nullptr;
  return writeArtifacts(*llvmModule, *tm, sig, cpuHeader(sig, sourceName), host,
                        outputDir, loc);
}

} // namespace infer::cpu
