//===- DynamicEntry.cpp - the entry point of a model with dynamic dims ----===//
//
// A model compiled with `?` dims keeps them: its code takes memref
// descriptors (sizes known at run time) and returns its outputs in buffers
// it allocates. The wrapper emitted here gives that function a flat C
// signature the runtime can call:
//
//   int32_t <name>_main(void *const *inputs, const int64_t *input_shapes,
//                       void *workspace, void **out_data,
//                       void **out_allocations, int64_t *out_shapes);
//
// `input_shapes` holds every input's dims one after the other; the wrapper
// writes each output's data pointer, the pointer to free() it with, and
// its dims (concatenated as for the inputs).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/CpuTarget.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace mlir;

namespace infer::cpu {

/// Bytes per element of an infer_dtype_t (ONNX numbering).
static int64_t dtypeBytes(int32_t dtype) {
  switch (dtype) {
  case 2: case 3: case 9: return 1;
  case 4: case 5: case 10: case 16: return 2;
  case 1: case 6: case 12: return 4;
  default: return 8;
  }
}

FailureOr<llvm::Function *> addDynamicEntry(llvm::Module &module,
                                            const ModelSignature &sig,
                                            std::string &error) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  // Memref descriptors, expanded: allocated and aligned pointer, offset,
  // then sizes and strides per dim.
  size_t expected = 0;
  for (const TensorSignature &t : sig.inputs) {
    expected += 3 + 2 * t.shape.size();
  }
  expected += 5; // the workspace, memref<Nxi8>
  if (sig.hasStatus) {
    expected += 3; // memref<i32>
  }
  llvm::Function *impl = module.getFunction(sig.name + "_main");
  if (!impl || impl->arg_size() != expected) {
    error = "the entry function " + sig.name + "_main takes " +
            (impl ? std::to_string(impl->arg_size()) : "no") +
            " arguments, expected " + std::to_string(expected) +
            " (memref descriptors of the inputs, the workspace" +
            (sig.hasStatus ? " and the status)" : ")");
    return failure();
  }
  impl->setName(sig.name + "_main.impl");
  impl->setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *type = llvm::FunctionType::get(i32, {ptr, ptr, ptr, ptr, ptr, ptr}, false);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       sig.name + "_main", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::Value *inputs = entry->getArg(0), *inShapes = entry->getArg(1);
  llvm::Value *workspace = entry->getArg(2), *outData = entry->getArg(3);
  llvm::Value *outAllocations = entry->getArg(4), *outShapes = entry->getArg(5);

  std::vector<llvm::Value *> args;
  uint64_t dimIndex = 0;
  for (auto [i, t] : llvm::enumerate(sig.inputs)) {
    llvm::Value *p = b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, inputs, i));
    args.push_back(p);
    args.push_back(p);
    args.push_back(llvm::ConstantInt::get(i64, 0));
    std::vector<llvm::Value *> sizes;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      sizes.push_back(
          b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, inShapes, dimIndex++)));
    }
    args.insert(args.end(), sizes.begin(), sizes.end());
    std::vector<llvm::Value *> strides(sizes.size());
    llvm::Value *stride = llvm::ConstantInt::get(i64, 1);
    for (size_t d = sizes.size(); d-- > 0;) {
      strides[d] = stride;
      stride = b.CreateMul(stride, sizes[d]);
    }
    args.insert(args.end(), strides.begin(), strides.end());
  }
  args.push_back(workspace);
  args.push_back(workspace);
  args.push_back(llvm::ConstantInt::get(i64, 0));
  args.push_back(llvm::ConstantInt::get(i64, sig.workspaceSize));
  args.push_back(llvm::ConstantInt::get(i64, 1));
  llvm::Value *status = nullptr;
  if (sig.hasStatus) {
    status = b.CreateAlloca(i32);
    b.CreateStore(llvm::ConstantInt::get(i32, 0), status);
    args.push_back(status);
    args.push_back(status);
    args.push_back(llvm::ConstantInt::get(i64, 0));
  }
  llvm::Value *results = b.CreateCall(impl, args);

  // One output comes back as its descriptor, several as a struct of them.
  auto *resultType = dyn_cast<llvm::StructType>(impl->getReturnType());
  if (!resultType || sig.outputs.empty()) {
    error = "the entry function " + sig.name + "_main returns no memref descriptors";
    entry->eraseFromParent();
    return failure();
  }
  dimIndex = 0;
  for (auto [i, t] : llvm::enumerate(sig.outputs)) {
    llvm::Value *desc =
        sig.outputs.size() == 1 ? results : b.CreateExtractValue(results, i);
    llvm::Value *allocated = b.CreateExtractValue(desc, 0);
    llvm::Value *aligned = b.CreateExtractValue(desc, 1);
    llvm::Value *offset = b.CreateExtractValue(desc, 2);
    llvm::Value *data = b.CreateGEP(
        b.getInt8Ty(), aligned,
        b.CreateMul(offset, llvm::ConstantInt::get(i64, dtypeBytes(t.dtype))));
    b.CreateStore(data, b.CreateConstInBoundsGEP1_64(ptr, outData, i));
    b.CreateStore(allocated, b.CreateConstInBoundsGEP1_64(ptr, outAllocations, i));
    for (size_t d = 0; d < t.shape.size(); ++d) {
      b.CreateStore(b.CreateExtractValue(desc, {3u, static_cast<unsigned>(d)}),
                    b.CreateConstInBoundsGEP1_64(i64, outShapes, dimIndex++));
    }
  }
  b.CreateRet(status ? b.CreateLoad(i32, status)
                     : static_cast<llvm::Value *>(llvm::ConstantInt::get(i32, 0)));
  return entry;
}

} // namespace infer::cpu
