//===- AbiConstant.cpp - the `<name>_model` constant the runtime loads ----===//

#include "targets/common/AbiConstant.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

namespace infer::targets {

namespace {

llvm::Constant *privateGlobal(llvm::Module &module, llvm::Constant *init,
                              const std::string &name) {
  return new llvm::GlobalVariable(module, init->getType(), true,
                                  llvm::GlobalValue::PrivateLinkage, init,
                                  name);
}

/// The infer_abi_profile_t of a model compiled with --profile, or null.
llvm::Constant *addKernelProfile(llvm::Module &module,
                                 const ModelSignature &sig) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  if (!sig.profiled) {
    return llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
  }
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *f64 = llvm::Type::getDoubleTy(ctx);
  auto string = [&](const std::string &text) {
    return privateGlobal(module, llvm::ConstantDataArray::getString(ctx, text),
                         sig.name + ".kernel");
  };
  auto *kernelType =
      llvm::StructType::get(ctx, {ptr, ptr, i32, i32, ptr, f64, i64});
  std::vector<llvm::Constant *> kernels;
  for (const KernelSignature &kernel : sig.kernels) {
    std::vector<llvm::Constant *> nodes;
    for (const std::string &node : kernel.nodes) {
      nodes.push_back(string(node));
    }
    auto *nodesType = llvm::ArrayType::get(ptr, nodes.size());
    kernels.push_back(llvm::ConstantStruct::get(
        kernelType,
        {string(kernel.name), string(kernel.opTypes),
         llvm::ConstantInt::get(i32, nodes.size()),
         llvm::ConstantInt::get(i32, 0),
         privateGlobal(module, llvm::ConstantArray::get(nodesType, nodes),
                       sig.name + ".nodes"),
         llvm::ConstantFP::get(f64, kernel.flops),
         llvm::ConstantInt::get(i64, kernel.bytes)}));
  }
  auto *kernelsType = llvm::ArrayType::get(kernelType, kernels.size());
  std::vector<uint32_t> segments = sig.segments;
  segments.push_back(0); // never empty
  auto *profileType = llvm::StructType::get(ctx, {i32, i32, ptr, ptr, i64});
  return privateGlobal(
      module,
      llvm::ConstantStruct::get(
          profileType,
          {llvm::ConstantInt::get(i32, sig.kernels.size()),
           llvm::ConstantInt::get(i32, sig.segments.size()),
           privateGlobal(module, llvm::ConstantArray::get(kernelsType, kernels),
                         sig.name + ".kernels"),
           privateGlobal(module, llvm::ConstantDataArray::get(ctx, segments),
                         sig.name + ".segments"),
           llvm::ConstantInt::get(i64, sig.stampsOffset)}),
      sig.name + ".profile");
}

} // namespace

void addAbiConstant(llvm::Module &module, const ModelSignature &sig,
                    const AbiEntryPoints &entries) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Constant *null =
      llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
  llvm::Constant *run = entries.run ? entries.run : null;
  llvm::Constant *runDynamic = entries.runDynamic ? entries.runDynamic : null;
  llvm::Constant *device = entries.device ? entries.device : null;
  llvm::Constant *setExecutor =
      entries.setExecutor ? entries.setExecutor : null;
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
      llvm::Constant *shape =
          llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
      if (!dims.empty()) {
        auto *init = llvm::ConstantDataArray::get(ctx, dims);
        shape = new llvm::GlobalVariable(module, init->getType(), true,
                                         llvm::GlobalValue::PrivateLinkage,
                                         init, sig.name + ".shape");
      }
      entries.push_back(llvm::ConstantStruct::get(
          tensorType,
          {stringConstant(t.name), llvm::ConstantInt::get(i32, t.dtype),
           llvm::ConstantInt::get(i32, t.shape.size()), shape}));
    }
    auto *arrayType = llvm::ArrayType::get(tensorType, entries.size());
    return new llvm::GlobalVariable(
        module, arrayType, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantArray::get(arrayType, entries), sig.name + "." + what);
  };
  // The messages of the run-time checks: status k means errors[k-1].
  llvm::Constant *errors = null;
  if (!sig.errors.empty()) {
    std::vector<llvm::Constant *> messages;
    for (const std::string &message : sig.errors) {
      messages.push_back(stringConstant(message));
    }
    auto *arrayType = llvm::ArrayType::get(ptr, messages.size());
    errors = new llvm::GlobalVariable(
        module, arrayType, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantArray::get(arrayType, messages), sig.name + ".errors");
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
  auto *modelType =
      llvm::StructType::get(ctx, {i32, i32, i32, i32, ptr, ptr, ptr, i64, ptr,
                                  ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr});
  auto *model = llvm::ConstantStruct::get(
      modelType,
      {llvm::ConstantInt::get(i32, 8),
       llvm::ConstantInt::get(i32, sig.inputs.size()),
       llvm::ConstantInt::get(i32, sig.outputs.size()),
       llvm::ConstantInt::get(i32, sig.errors.size()), stringConstant(sig.name),
       tensorArray(sig.inputs, "inputs"), tensorArray(sig.outputs, "outputs"),
       llvm::ConstantInt::get(i64, sig.workspaceSize), run, device, errors,
       runDynamic, profile(&TensorSignature::min, "shape_min"),
       profile(&TensorSignature::opt, "shape_opt"),
       profile(&TensorSignature::max, "shape_max"), setExecutor,
       addKernelProfile(module, sig)});
  new llvm::GlobalVariable(module, modelType, true,
                           llvm::GlobalValue::ExternalLinkage, model,
                           sig.name + "_model");
}

} // namespace infer::targets
