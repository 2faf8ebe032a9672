//===- ParallelToRuntime.cpp - parallel loops on the caller's executor ----===//
//
// The CPU pipeline turns each parallel loop into an `omp.parallel` +
// `omp.wsloop` (convert-scf-to-openmp), whose body is lowered to the LLVM
// dialect like the rest of the function. Instead of handing that to the
// OpenMP runtime, this pass outlines it:
//
//   omp.parallel { prefix; omp.wsloop { omp.loop_nest (ivs) = lb to ub
//     step s { body } } }
//
// becomes a task `void F_task_k(ptr ctx, i64 begin, i64 end)` that loads
// the values the region uses from `ctx`, runs the prefix (the per-thread
// pack buffers) and then the body for the linear iterations [begin, end)
// of the (collapsed) loop nest; and, in its place, a struct of those
// values on the stack and a call
//
//   __infer_parallel_for(F_task_k, ctx, iterations)
//
// which calls the task through the executor the thread-local
// `__infer_executor` names (infer_abi_executor_t in infer/abi.h), or once
// over all iterations when there is none or only one iteration. The
// artifact's `<name>_set_executor` sets it for the calling thread. A
// declared `__infer_num_threads` (the contraction kernels' group count)
// gets its body here too: the executor's `num_threads`, 1 without one.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_PARALLELTORUNTIMEPASS
#include "targets/cpu/Passes.h.inc"

namespace {

constexpr llvm::StringLiteral kExecutor = "__infer_executor";
constexpr llvm::StringLiteral kDispatch = "__infer_parallel_for";

/// Ops a task recomputes rather than loads from its context.
bool rematerializable(Operation *op) {
  return op && op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         (op->hasTrait<OpTrait::ConstantLike>() ||
          isa<LLVM::AddressOfOp, LLVM::ZeroOp, LLVM::UndefOp, LLVM::PoisonOp>(
              op));
}

/// Whether `v` is the address of a constant global or of an element of one
/// at constant indices (as memref.get_global lowers).
bool pointsIntoConstantGlobal(Value v, ModuleOp module) {
  Operation *def = v.getDefiningOp();
  if (auto gep = dyn_cast_or_null<LLVM::GEPOp>(def)) {
    return gep.getDynamicIndices().empty() &&
           pointsIntoConstantGlobal(gep.getBase(), module);
  }
  auto address = dyn_cast_or_null<LLVM::AddressOfOp>(def);
  auto global =
      address ? module.lookupSymbol<LLVM::GlobalOp>(address.getGlobalName())
              : LLVM::GlobalOp();
  return global && global.getConstant();
}

/// Marks the loads through `base` (and GEPs from it) in the task invariant:
/// they read a constant global, which no store of the task changes. The
/// task gets the global's address from its context, where LLVM cannot see
/// that, and would load a depthwise convolution's 9 weights again for every
/// output row (a store to the output between). Float loads only: marked,
/// the implicit GEMMs' i32 offset tables let LLVM duplicate their loops
/// (PP-OCRv4 rec's convolutions 3% slower). (Recomputing the address in
/// the task instead let LLVM fold the weights into the code: every
/// contraction 30-40% slower.)
void markInvariantLoads(Value base) {
  SmallVector<Value> pointers = {base};
  while (!pointers.empty()) {
    Value p = pointers.pop_back_val();
    for (Operation *user : p.getUsers()) {
      if (auto gep = dyn_cast<LLVM::GEPOp>(user)) {
        if (gep.getBase() == p) {
          pointers.push_back(gep.getResult());
        }
      } else if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
        if (isa<FloatType>(load.getType())) {
          load.setInvariant(true);
        }
      }
    }
  }
}

class Outliner {
public:
  Outliner(ModuleOp module) : module(module), b(module.getContext()) {
    ptr = LLVM::LLVMPointerType::get(module.getContext());
    i64 = IntegerType::get(module.getContext(), 64);
  }

  /// The thread-local executor pointer and the dispatch function.
  void declareRuntime() {
    Location loc = module.getLoc();
    b.setInsertionPointToStart(module.getBody());
    if (!module.lookupSymbol(kExecutor)) {
      auto global = LLVM::GlobalOp::create(
          b, loc, ptr, /*isConstant=*/false, LLVM::Linkage::Internal, kExecutor,
          Attribute(), /*alignment=*/8, /*addrSpace=*/0,
          /*dsoLocal=*/false, /*thread_local_=*/true);
      Block *init = b.createBlock(&global.getInitializerRegion());
      b.setInsertionPointToStart(init);
      LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr));
      b.setInsertionPointAfter(global);
    }
    if (module.lookupSymbol(kDispatch)) {
      return;
    }
    auto voidType = LLVM::LLVMVoidType::get(module.getContext());
    auto fn = LLVM::LLVMFuncOp::create(
        b, loc, kDispatch,
        LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i64}),
        LLVM::Linkage::Internal);
    // Not inlined: the serial path's direct call would otherwise pull every
    // task's body into the caller a second time (code size, compile time).
    fn.setNoInline(true);
    Block *entry = fn.addEntryBlock(b);
    Block *serial = b.createBlock(&fn.getBody());
    Block *parallel = b.createBlock(&fn.getBody());
    Value task = entry->getArgument(0), ctx = entry->getArgument(1),
          n = entry->getArgument(2);
    b.setInsertionPointToStart(entry);
    Value slot = LLVM::ThreadlocalAddressOp::create(
        b, loc, ptr, LLVM::AddressOfOp::create(b, loc, ptr, kExecutor));
    Value executor = LLVM::LoadOp::create(b, loc, ptr, slot);
    Value none = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, executor,
                                      LLVM::ZeroOp::create(b, loc, ptr));
    Value one = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, n,
                                     constant(loc, 2));
    LLVM::CondBrOp::create(b, loc, LLVM::OrOp::create(b, loc, none, one),
                           serial, parallel);
    auto taskType = LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64});
    b.setInsertionPointToStart(serial);
    LLVM::CallOp::create(b, loc, taskType,
                         ValueRange{task, ctx, constant(loc, 0), n});
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    // executor->parallel_for(executor, task, ctx, n): the first field.
    b.setInsertionPointToStart(parallel);
    Value parallelFor = LLVM::LoadOp::create(b, loc, ptr, executor);
    LLVM::CallOp::create(
        b, loc, LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, ptr, i64}),
        ValueRange{parallelFor, executor, task, ctx, n});
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }

  LogicalResult outline(omp::ParallelOp parallel);

  /// Gives the declared `@__infer_num_threads` (infer-cpu-contraction-
  /// kernels' thread count) its body: the executor's `num_threads`, or 1
  /// when the calling thread has no executor.
  void defineThreadCount() {
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(kThreadCountFn);
    if (!fn || !fn.isExternal()) {
      return;
    }
    Location loc = fn.getLoc();
    fn.setLinkage(LLVM::Linkage::Internal);
    Block *entry = fn.addEntryBlock(b);
    Block *none = b.createBlock(&fn.getBody());
    Block *some = b.createBlock(&fn.getBody());
    Type result = fn.getFunctionType().getReturnType();
    b.setInsertionPointToStart(entry);
    Value slot = LLVM::ThreadlocalAddressOp::create(
        b, loc, ptr, LLVM::AddressOfOp::create(b, loc, ptr, kExecutor));
    Value executor = LLVM::LoadOp::create(b, loc, ptr, slot);
    LLVM::CondBrOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, executor,
                             LLVM::ZeroOp::create(b, loc, ptr)),
        none, some);
    b.setInsertionPointToStart(none);
    LLVM::ReturnOp::create(b, loc, LLVM::ConstantOp::create(b, loc, result, 1));
    // infer_abi_executor_t {ptr parallel_for; i32 num_threads; i32}.
    b.setInsertionPointToStart(some);
    auto i32 = IntegerType::get(module.getContext(), 32);
    auto executorType =
        LLVM::LLVMStructType::getLiteral(module.getContext(), {ptr, i32, i32});
    Value field = LLVM::GEPOp::create(b, loc, ptr, executorType, executor,
                                      ArrayRef<LLVM::GEPArg>{0, 1});
    // Atomic (monotonic): the runtime's pool changes the count while runs
    // are in flight (fewer threads on a busy machine).
    Value count = LLVM::LoadOp::create(b, loc, i32, field, /*alignment=*/4,
                                       /*isVolatile=*/false,
                                       /*isNonTemporal=*/false,
                                       /*isInvariant=*/false,
                                       /*isInvariantGroup=*/false,
                                       LLVM::AtomicOrdering::monotonic);
    LLVM::ReturnOp::create(b, loc, LLVM::SExtOp::create(b, loc, result, count));
  }

private:
  Value constant(Location loc, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, i64, value);
  }

  /// Iterations of dim d of `nest`: ceil((ub - lb [+ 1]) / step).
  Value tripCount(Location loc, omp::LoopNestOp nest, Value lb, Value ub,
                  Value step) {
    Value span = LLVM::SubOp::create(b, loc, ub, lb);
    if (nest.getLoopInclusive()) {
      span = LLVM::AddOp::create(b, loc, span, constant(loc, 1));
    }
    Value rounded = LLVM::AddOp::create(
        b, loc, span, LLVM::SubOp::create(b, loc, step, constant(loc, 1)));
    Value count = LLVM::SDivOp::create(b, loc, rounded, step);
    // An empty range (ub < lb) runs no iteration.
    Value negative = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                          count, constant(loc, 0));
    return LLVM::SelectOp::create(b, loc, negative, constant(loc, 0), count);
  }

  ModuleOp module;
  OpBuilder b;
  Type ptr, i64;
  unsigned counter = 0;
};

LogicalResult Outliner::outline(omp::ParallelOp parallel) {
  Location loc = parallel.getLoc();
  auto caller = parallel->getParentOfType<LLVM::LLVMFuncOp>();
  if (!caller) {
    return parallel.emitError("omp.parallel outside an llvm.func");
  }
  if (parallel->getNumOperands() != 0 || !parallel.getRegion().hasOneBlock()) {
    return parallel.emitError(
        "only an omp.parallel with no clauses and one block can run on the "
        "runtime's executor");
  }
  Block &region = parallel.getRegion().front();
  auto wsloop = dyn_cast<omp::WsloopOp>(region.getTerminator()->getPrevNode());
  if (!wsloop || wsloop->getNumOperands() != 0) {
    return parallel.emitError(
        "expected an omp.wsloop without clauses ending the omp.parallel");
  }
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest) {
    return parallel.emitError("expected an omp.loop_nest in the omp.wsloop");
  }

  // The values the region uses from outside: loaded from the context,
  // except constants and addresses, which the task recomputes.
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(parallel.getRegion(), used);
  SmallVector<Value> captures;
  SmallVector<Operation *> remat;
  for (Value v : used) {
    if (rematerializable(v.getDefiningOp())) {
      remat.push_back(v.getDefiningOp());
    } else {
      captures.push_back(v);
    }
  }
  SmallVector<Type> fieldTypes;
  for (Value v : captures) {
    fieldTypes.push_back(v.getType());
  }
  auto contextType =
      LLVM::LLVMStructType::getLiteral(module.getContext(), fieldTypes);

  // The task.
  MLIRContext *ctx = module.getContext();
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  b.setInsertionPoint(caller);
  std::string name =
      (caller.getSymName() + "_task" + std::to_string(counter++)).str();
  auto task = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64}),
      LLVM::Linkage::Internal);
  Block *entry = task.addEntryBlock(b);
  Value context = entry->getArgument(0), begin = entry->getArgument(1),
        end = entry->getArgument(2);
  IRMapping map;
  b.setInsertionPointToStart(entry);
  for (Operation *op : remat) {
    b.clone(*op, map);
  }
  SmallVector<Value> constantData;
  for (auto [i, v] : llvm::enumerate(captures)) {
    Value field =
        LLVM::GEPOp::create(b, loc, ptr, contextType, context,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    map.map(v, LLVM::LoadOp::create(b, loc, v.getType(), field));
    if (pointsIntoConstantGlobal(v, module)) {
      constantData.push_back(map.lookup(v));
    }
  }
  for (Operation &op : region.without_terminator()) {
    if (&op == wsloop.getOperation()) {
      break;
    }
    b.clone(op, map);
  }
  size_t dims = nest.getLoopLowerBounds().size();
  SmallVector<Value> lbs, steps, counts;
  for (size_t d = 0; d < dims; ++d) {
    Value lb = map.lookupOrDefault(nest.getLoopLowerBounds()[d]);
    Value step = map.lookupOrDefault(nest.getLoopSteps()[d]);
    lbs.push_back(lb);
    steps.push_back(step);
    counts.push_back(
        tripCount(loc, nest, lb,
                  map.lookupOrDefault(nest.getLoopUpperBounds()[d]), step));
  }
  // for (i = begin; i < end; ++i): delinearize i, run the body.
  Block *header = b.createBlock(&task.getBody(), {}, {i64}, {loc});
  Block *delinearize = b.createBlock(&task.getBody());
  Block *latch = b.createBlock(&task.getBody());
  Block *exit = b.createBlock(&task.getBody());
  b.setInsertionPointToEnd(entry);
  LLVM::BrOp::create(b, loc, ValueRange{begin}, header);
  b.setInsertionPointToStart(header);
  Value i = header->getArgument(0);
  LLVM::CondBrOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, i, end),
      delinearize, exit);
  b.setInsertionPointToStart(exit);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  b.setInsertionPointToStart(latch);
  LLVM::BrOp::create(
      b, loc, ValueRange{LLVM::AddOp::create(b, loc, i, constant(loc, 1))},
      header);

  Region &body = nest.getRegion();
  body.cloneInto(&task.getBody(), latch->getIterator(), map);
  for (Value base : constantData) {
    markInvariantLoads(base);
  }
  Block *bodyEntry = map.lookup(&body.front());
  b.setInsertionPointToStart(delinearize);
  SmallVector<Value> ivs(dims);
  Value rest = i;
  for (size_t d = dims; d-- > 0;) {
    Value index = d == 0 ? rest : LLVM::SRemOp::create(b, loc, rest, counts[d]);
    if (d != 0) {
      rest = LLVM::SDivOp::create(b, loc, rest, counts[d]);
    }
    ivs[d] = LLVM::AddOp::create(b, loc, lbs[d],
                                 LLVM::MulOp::create(b, loc, index, steps[d]));
  }
  LLVM::BrOp::create(b, loc, ivs, bodyEntry);
  for (Block &block : body) {
    Block *clone = map.lookup(&block);
    if (auto yield = dyn_cast<omp::YieldOp>(clone->getTerminator())) {
      if (yield->getNumOperands() != 0) {
        return parallel.emitError("omp.loop_nest yields values");
      }
      b.setInsertionPoint(yield);
      LLVM::BrOp::create(b, loc, ValueRange{}, latch);
      yield.erase();
    }
  }

  // The call site: the context in the caller's entry block (one slot even
  // when the loop is inside another loop), the iteration count, dispatch.
  Block &callerEntry = caller.getBody().front();
  b.setInsertionPointToStart(&callerEntry);
  Value slot =
      LLVM::AllocaOp::create(b, loc, ptr, contextType, constant(loc, 1));
  b.setInsertionPoint(parallel);
  for (auto [i, v] : llvm::enumerate(captures)) {
    Value field =
        LLVM::GEPOp::create(b, loc, ptr, contextType, slot,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, v, field);
  }
  // The trip counts again, outside: bounds defined in the region must be
  // constants (recomputed here).
  IRMapping outside;
  Value total = constant(loc, 1);
  for (size_t d = 0; d < dims; ++d) {
    SmallVector<Value> bounds;
    for (Value v : {nest.getLoopLowerBounds()[d], nest.getLoopUpperBounds()[d],
                    nest.getLoopSteps()[d]}) {
      if (parallel.getRegion().isAncestor(v.getParentRegion())) {
        Operation *def = v.getDefiningOp();
        if (!def || !def->hasTrait<OpTrait::ConstantLike>()) {
          return parallel.emitError(
              "a loop bound computed inside the omp.parallel");
        }
        v = b.clone(*def, outside)->getResult(0);
      }
      bounds.push_back(v);
    }
    total = LLVM::MulOp::create(
        b, loc, total, tripCount(loc, nest, bounds[0], bounds[1], bounds[2]));
  }
  Value taskAddress = LLVM::AddressOfOp::create(b, loc, ptr, name);
  LLVM::CallOp::create(b, loc, TypeRange{}, kDispatch,
                       ValueRange{taskAddress, slot, total});
  parallel.erase();
  return success();
}

struct ParallelToRuntimePass final
    : impl::ParallelToRuntimePassBase<ParallelToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Outliner outliner(module);
    outliner.declareRuntime();
    outliner.defineThreadCount();
    // Outermost first; a parallel loop nested in another is outlined with
    // it into the task, and then on its own (it runs serially there: the
    // pool is busy with the outer one).
    while (true) {
      omp::ParallelOp next;
      module.walk<WalkOrder::PreOrder>([&](omp::ParallelOp op) {
        next = op;
        return WalkResult::interrupt();
      });
      if (!next) {
        break;
      }
      if (failed(outliner.outline(next))) {
        return signalPassFailure();
      }
    }
    WalkResult leftover = module.walk([](Operation *op) {
      if (isa<omp::OpenMPDialect>(op->getDialect())) {
        op->emitError("OpenMP op left after outlining the parallel loops");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted()) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::cpu
