//===- EmulationLibrary.cpp - the kernels as host code, for emulation -----===//
//
// Builds the model's GPU kernels a second time, for the CPU of this
// machine, into a shared library that test/cuda-emulator runs (one fiber
// per GPU thread, barriers and warp shuffles between fibers). It lets the
// tests check the kernels' results where no GPU is lent: the same IR the
// PTX comes from, with the GPU's index, barrier and shuffle ops replaced by
// calls into the emulator, declared in EmulatorInterface.h (which the
// emulator includes too). Each kernel K gets an entry `K__emu(void
// **params)` that takes the parameters as cuLaunchKernel passes them.
//
//===----------------------------------------------------------------------===//

#include "targets/common/ArtifactWriter.h"
#include "targets/common/BufferPipelines.h"
#include "targets/cuda/EmulatorInterface.h"
#include "targets/cuda/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_EMULATIONLIBRARYPASS
#include "targets/cuda/Passes.h.inc"

namespace {

struct Kernel {
  std::string name;
  unsigned numParams = 0;
  SmallVector<int64_t> workgroupBytes;
};

func::FuncOp declare(OpBuilder &b, ModuleOp module, StringRef name,
                     TypeRange inputs, TypeRange results) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name)) {
    return fn;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType(inputs, results));
  fn.setPrivate();
  return fn;
}

/// The index the emulator returns for `which` (see the file comment).
Value emulatedId(OpBuilder &b, ModuleOp module, Location loc, int32_t which) {
  func::FuncOp fn =
      declare(b, module, INFER_EMU_ID, {b.getI32Type()}, {b.getI64Type()});
  Value code = arith::ConstantIntOp::create(b, loc, which, 32);
  Value id = func::CallOp::create(b, loc, fn, ValueRange{code}).getResult(0);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), id);
}

/// Replaces the GPU dialect ops of the host copies with emulator calls.
LogicalResult replaceGpuOps(ModuleOp module) {
  OpBuilder b(module.getContext());
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect())) {
      ops.push_back(op);
    }
  });
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto dim = [](gpu::Dimension d) { return static_cast<int32_t>(d); };
    LogicalResult done =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](gpu::ThreadIdOp id) {
              id.replaceAllUsesWith(
                  emulatedId(b, module, loc, dim(id.getDimension())));
              return success();
            })
            .Case([&](gpu::BlockIdOp id) {
              id.replaceAllUsesWith(
                  emulatedId(b, module, loc, 3 + dim(id.getDimension())));
              return success();
            })
            .Case([&](gpu::BlockDimOp id) {
              id.replaceAllUsesWith(
                  emulatedId(b, module, loc, 6 + dim(id.getDimension())));
              return success();
            })
            .Case([&](gpu::GridDimOp id) {
              id.replaceAllUsesWith(
                  emulatedId(b, module, loc, 9 + dim(id.getDimension())));
              return success();
            })
            .Case([&](gpu::BarrierOp) {
              func::FuncOp fn = declare(b, module, INFER_EMU_BARRIER, {}, {});
              func::CallOp::create(b, loc, fn, ValueRange{});
              return success();
            })
            .Case([&](gpu::ShuffleOp shuffle) -> LogicalResult {
              Type type = shuffle.getValue().getType();
              if (shuffle.getMode() != gpu::ShuffleMode::XOR ||
                  (!type.isF32() && !type.isInteger(32))) {
                return shuffle.emitError("the emulator has no shuffle of ")
                       << type << " in this mode";
              }
              std::string name = type.isF32() ? INFER_EMU_SHUFFLE_XOR_F32
                                              : INFER_EMU_SHUFFLE_XOR_I32;
              func::FuncOp fn =
                  declare(b, module, name,
                          {type, b.getI32Type(), b.getI32Type()}, {type});
              Value value = func::CallOp::create(b, loc, fn,
                                                 ValueRange{shuffle.getValue(),
                                                            shuffle.getOffset(),
                                                            shuffle.getWidth()})
                                .getResult(0);
              Value valid = arith::ConstantIntOp::create(b, loc, 1, 1);
              shuffle.replaceAllUsesWith(ValueRange{value, valid});
              return success();
            })
            .Case([&](gpu::ReturnOp) {
              func::ReturnOp::create(b, loc);
              return success();
            })
            .Default([](Operation *other) {
              return other->emitError("the CUDA emulator cannot run '")
                     << other->getName() << "'";
            });
    if (failed(done)) {
      return failure();
    }
    op->erase();
  }
  return success();
}

/// `K__emu(void **params)`: loads each parameter from the slot its pointer
/// points at, gets the block's workgroup buffers, and calls K.
void addEntry(ModuleOp module, const Kernel &kernel) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto target = module.lookupSymbol<LLVM::LLVMFuncOp>(kernel.name);
  auto shared = module.lookupSymbol<LLVM::LLVMFuncOp>(INFER_EMU_SHARED);
  if (!shared) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    shared = LLVM::LLVMFuncOp::create(
        b, loc, INFER_EMU_SHARED,
        LLVM::LLVMFunctionType::get(ptr, {b.getI32Type(), b.getI64Type()}));
  }
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc, kernel.name + INFER_EMU_ENTRY_SUFFIX,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}));
  Block *body = entry.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value params = body->getArgument(0);
  SmallVector<Value> args;
  ArrayRef<Type> types = target.getFunctionType().getParams();
  for (unsigned i = 0; i < kernel.numParams; ++i) {
    Value at = LLVM::GEPOp::create(b, loc, ptr, ptr, params,
                                   ArrayRef<LLVM::GEPArg>{(int32_t)i});
    Value slot = LLVM::LoadOp::create(b, loc, ptr, at);
    args.push_back(LLVM::LoadOp::create(b, loc, types[i], slot));
  }
  for (auto [index, bytes] : llvm::enumerate(kernel.workgroupBytes)) {
    Value which = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                           b.getI32IntegerAttr(index));
    Value size = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                          b.getI64IntegerAttr(bytes));
    args.push_back(LLVM::CallOp::create(b, loc, shared, ValueRange{which, size})
                       .getResult());
  }
  LLVM::CallOp::create(b, loc, target, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

struct EmulationLibraryPass final
    : impl::EmulationLibraryPassBase<EmulationLibraryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (gpuModules.empty()) {
      return; // No kernels: the CUDA target reports that itself.
    }
    if (gpuModules.size() != 1) {
      module.emitError("expected one GPU module to emulate, found ")
          << gpuModules.size();
      return signalPassFailure();
    }
    OwningOpRef<ModuleOp> host = ModuleOp::create(module.getLoc());
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(host->getBody());
    std::vector<Kernel> kernels;
    for (Operation &op : gpuModules.front().getBody()->without_terminator()) {
      auto fn = dyn_cast<gpu::GPUFuncOp>(op);
      if (!fn) {
        b.clone(op); // globals the kernels read
        continue;
      }
      if (!fn.isKernel() || fn.getNumPrivateAttributions() != 0) {
        fn.emitError("the CUDA emulator runs kernels without private "
                     "memory only");
        return signalPassFailure();
      }
      auto copy = func::FuncOp::create(b, fn.getLoc(), fn.getName(),
                                       b.getFunctionType({}, {}));
      IRMapping map;
      fn.getBody().cloneInto(&copy.getBody(), map);
      Block &entry = copy.getBody().front();
      Kernel kernel{fn.getName().str(), fn.getNumArguments(), {}};
      // Workgroup buffers become trailing arguments in host memory.
      for (unsigned i = 0; i < fn.getNumWorkgroupAttributions(); ++i) {
        BlockArgument arg = entry.getArgument(kernel.numParams + i);
        auto type = cast<MemRefType>(arg.getType());
        arg.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                    type.getLayout()));
        kernel.workgroupBytes.push_back(type.getNumElements() *
                                        type.getElementTypeBitWidth() / 8);
      }
      copy.setFunctionType(b.getFunctionType(entry.getArgumentTypes(), {}));
      kernels.push_back(std::move(kernel));
    }
    RewritePatternSet patterns(ctx);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, 32, 32);
    if (failed(applyPatternsGreedily(*host, std::move(patterns))) ||
        failed(replaceGpuOps(*host))) {
      return signalPassFailure();
    }
    PassManager pm(ctx);
    targets::buildLoopsToLLVMPipeline(pm, /*barePointers=*/true,
                                      /*genericAllocations=*/false,
                                      /*openmp=*/false);
    if (failed(pm.run(*host))) {
      module.emitError("lowering the kernels for the CUDA emulator failed");
      return signalPassFailure();
    }
    for (const Kernel &kernel : kernels) {
      addEntry(*host, kernel);
    }
    if (failed(targets::emitHostLibrary(*host, output))) {
      return signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::cuda
