//===- DynamicEntry.cpp - the entry point of a model with dynamic dims ----===//
//
// A model compiled with `?` dims keeps them: its code takes memref
// descriptors (sizes known at run time) and returns its outputs in buffers
// it allocates. The wrapper emitted here gives that function a flat C
// signature the runtime can call:
//
//   int32_t <name>_main(void *const *inputs, const int64_t *input_shapes,
//                       void *workspace, void **out_data,
//                       void **out_allocations, int64_t *out_shapes,
//                       infer_abi_allocator_t *allocator);
//
// `input_shapes` holds every input's dims one after the other; the wrapper
// writes each output's data pointer, its buffer, and its dims
// (concatenated as for the inputs).
//
// Buffers of run-time size are allocated through the runtime: the code
// calls MLIR's generic allocation functions, defined here (internal, so
// models do not clash) to take blocks from the allocator the caller
// passed, found through a thread-local the wrapper sets for the call.
// Each buffer has a header (infer_abi_buffer_header_t) 64 bytes before it
// naming its allocator, so a block allocated where the thread-local is
// unset (an OpenMP worker) goes back to aligned_alloc's free().
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
  case 2:
  case 3:
  case 9:
    return 1;
  case 4:
  case 5:
  case 10:
  case 16:
    return 2;
  case 1:
  case 6:
  case 12:
    return 4;
  default:
    return 8;
  }
}

namespace {

constexpr uint64_t kHeaderBytes = 64;

/// The internal function `name` of `type`: the module's declaration of it
/// (which the caller gives a body), or a new one.
llvm::Function *defineInternal(llvm::Module &module, llvm::StringRef name,
                               llvm::FunctionType *type) {
  llvm::Function *fn = module.getFunction(name);
  if (!fn) {
    fn = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name,
                                module);
  }
  fn->setLinkage(llvm::GlobalValue::InternalLinkage);
  return fn;
}

/// The generic allocation functions MLIR's memref lowering calls
/// (`use-generic-functions`), on top of `allocator` (a thread-local
/// infer_abi_allocator_t pointer).
void defineAllocationFunctions(llvm::Module &module,
                               llvm::GlobalVariable *allocator) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *voidType = llvm::Type::getVoidTy(ctx);
  llvm::FunctionCallee alignedAlloc = module.getOrInsertFunction(
      "aligned_alloc", llvm::FunctionType::get(ptr, {i64, i64}, false));
  llvm::FunctionCallee freeFn = module.getOrInsertFunction(
      "free", llvm::FunctionType::get(voidType, {ptr}, false));
  auto *allocType = llvm::FunctionType::get(ptr, {ptr, i64}, false);
  auto *releaseType = llvm::FunctionType::get(voidType, {ptr, ptr, i64}, false);

  // ptr aligned(i64 alignment, i64 bytes): a block of bytes + header +
  // alignment, the result aligned past the header.
  llvm::Function *aligned =
      defineInternal(module, "_mlir_memref_to_llvm_aligned_alloc",
                     llvm::FunctionType::get(ptr, {i64, i64}, false));
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", aligned));
    llvm::Value *align = b.CreateSelect(
        b.CreateICmpUGT(aligned->getArg(0), b.getInt64(kHeaderBytes)),
        aligned->getArg(0), b.getInt64(kHeaderBytes));
    llvm::Value *total = b.CreateAdd(
        b.CreateAdd(aligned->getArg(1), b.getInt64(kHeaderBytes)), align);
    // Whole multiples of 64 bytes, as aligned_alloc wants.
    total = b.CreateAnd(b.CreateAdd(total, b.getInt64(63)),
                        b.getInt64(~uint64_t(63)));
    llvm::Value *owner =
        b.CreateLoad(ptr, b.CreateThreadLocalAddress(allocator));
    auto *fromAllocator = llvm::BasicBlock::Create(ctx, "allocator", aligned);
    auto *fromLibc = llvm::BasicBlock::Create(ctx, "libc", aligned);
    auto *join = llvm::BasicBlock::Create(ctx, "join", aligned);
    b.CreateCondBr(b.CreateIsNotNull(owner), fromAllocator, fromLibc);
    b.SetInsertPoint(fromAllocator);
    llvm::Value *allocFn = b.CreateLoad(ptr, owner);
    llvm::Value *mine = b.CreateCall(allocType, allocFn, {owner, total});
    b.CreateBr(join);
    b.SetInsertPoint(fromLibc);
    llvm::Value *theirs =
        b.CreateCall(alignedAlloc, {b.getInt64(kHeaderBytes), total});
    b.CreateBr(join);
    b.SetInsertPoint(join);
    llvm::PHINode *block = b.CreatePHI(ptr, 2);
    block->addIncoming(mine, fromAllocator);
    block->addIncoming(theirs, fromLibc);
    // A failed allocation returns NULL.
    auto *failed = llvm::BasicBlock::Create(ctx, "failed", aligned);
    auto *got = llvm::BasicBlock::Create(ctx, "got", aligned);
    b.CreateCondBr(b.CreateIsNull(block), failed, got);
    b.SetInsertPoint(failed);
    b.CreateRet(
        llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx)));
    b.SetInsertPoint(got);
    // result = round_up(block + header, align); the header sits before it.
    llvm::Value *start = b.CreatePtrToInt(block, i64);
    llvm::Value *at = b.CreateAnd(
        b.CreateAdd(start, b.CreateAdd(b.getInt64(kHeaderBytes),
                                       b.CreateSub(align, b.getInt64(1)))),
        b.CreateNeg(align));
    llvm::Value *result =
        b.CreateGEP(b.getInt8Ty(), block, b.CreateSub(at, start));
    llvm::Value *header =
        b.CreateGEP(b.getInt8Ty(), result, b.getInt64(-int64_t(kHeaderBytes)));
    b.CreateStore(owner, header);
    b.CreateStore(block, b.CreateConstGEP1_64(ptr, header, 1));
    b.CreateStore(total, b.CreateConstGEP1_64(i64, header, 2));
    b.CreateRet(result);
  }
  llvm::Function *alloc =
      defineInternal(module, "_mlir_memref_to_llvm_alloc",
                     llvm::FunctionType::get(ptr, {i64}, false));
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", alloc));
    b.CreateRet(
        b.CreateCall(aligned, {b.getInt64(kHeaderBytes), alloc->getArg(0)}));
  }
  // void free(ptr): back to the block's allocator, or to libc.
  llvm::Function *release =
      defineInternal(module, "_mlir_memref_to_llvm_free",
                     llvm::FunctionType::get(voidType, {ptr}, false));
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", release));
    auto *done = llvm::BasicBlock::Create(ctx, "done", release);
    auto *some = llvm::BasicBlock::Create(ctx, "some", release);
    b.CreateCondBr(b.CreateIsNull(release->getArg(0)), done, some);
    b.SetInsertPoint(some);
    llvm::Value *header = b.CreateGEP(b.getInt8Ty(), release->getArg(0),
                                      b.getInt64(-int64_t(kHeaderBytes)));
    llvm::Value *owner = b.CreateLoad(ptr, header);
    llvm::Value *block =
        b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, header, 1));
    llvm::Value *bytes =
        b.CreateLoad(i64, b.CreateConstGEP1_64(i64, header, 2));
    auto *toAllocator = llvm::BasicBlock::Create(ctx, "allocator", release);
    auto *toLibc = llvm::BasicBlock::Create(ctx, "libc", release);
    b.CreateCondBr(b.CreateIsNotNull(owner), toAllocator, toLibc);
    b.SetInsertPoint(toAllocator);
    llvm::Value *freeSlot = b.CreateConstGEP1_64(ptr, owner, 1);
    b.CreateCall(releaseType, b.CreateLoad(ptr, freeSlot),
                 {owner, block, bytes});
    b.CreateBr(done);
    b.SetInsertPoint(toLibc);
    b.CreateCall(freeFn, {block});
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
  }
}

} // namespace

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
  auto *type =
      llvm::FunctionType::get(i32, {ptr, ptr, ptr, ptr, ptr, ptr, ptr}, false);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       sig.name + "_main", module);
  auto *allocator = new llvm::GlobalVariable(
      module, ptr, false, llvm::GlobalValue::InternalLinkage,
      llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx)),
      sig.name + ".allocator", nullptr,
      llvm::GlobalValue::GeneralDynamicTLSModel);
  defineAllocationFunctions(module, allocator);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::Value *inputs = entry->getArg(0), *inShapes = entry->getArg(1);
  llvm::Value *workspace = entry->getArg(2), *outData = entry->getArg(3);
  llvm::Value *outAllocations = entry->getArg(4), *outShapes = entry->getArg(5);
  // This call's allocations go to the caller's allocator (restored after,
  // should a model run inside another's allocation callback).
  llvm::Value *slot = b.CreateThreadLocalAddress(allocator);
  llvm::Value *previous = b.CreateLoad(ptr, slot);
  b.CreateStore(entry->getArg(6), slot);

  std::vector<llvm::Value *> args;
  uint64_t dimIndex = 0;
  for (auto [i, t] : llvm::enumerate(sig.inputs)) {
    llvm::Value *p =
        b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, inputs, i));
    args.push_back(p);
    args.push_back(p);
    args.push_back(llvm::ConstantInt::get(i64, 0));
    std::vector<llvm::Value *> sizes;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      sizes.push_back(b.CreateLoad(
          i64, b.CreateConstInBoundsGEP1_64(i64, inShapes, dimIndex++)));
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
    error = "the entry function " + sig.name +
            "_main returns no memref descriptors";
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
    b.CreateStore(allocated,
                  b.CreateConstInBoundsGEP1_64(ptr, outAllocations, i));
    for (size_t d = 0; d < t.shape.size(); ++d) {
      b.CreateStore(b.CreateExtractValue(desc, {3u, static_cast<unsigned>(d)}),
                    b.CreateConstInBoundsGEP1_64(i64, outShapes, dimIndex++));
    }
  }
  b.CreateStore(previous, slot);
  b.CreateRet(status
                  ? b.CreateLoad(i32, status)
                  : static_cast<llvm::Value *>(llvm::ConstantInt::get(i32, 0)));
  return entry;
}

} // namespace infer::cpu
