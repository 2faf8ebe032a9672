//===- MapParallelLoops.cpp - loop nests -> GPU blocks and threads --------===//

#include "targets/cuda/KernelUtils.h"
#include "targets/cuda/Passes.h"
#include "targets/cuda/WarpReductions.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_MAPPARALLELLOOPSPASS
#include "targets/cuda/Passes.h.inc"

namespace {

/// Ops the host may run: buffers, weights, views and constants.
bool staysOnHost(Operation *op) {
  return isa<arith::ConstantOp, memref::AllocOp, memref::AllocaOp,
             memref::DeallocOp, memref::GetGlobalOp, memref::ViewOp,
             memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ReshapeOp, memref::CastOp, memref::ReinterpretCastOp,
             func::ReturnOp>(op);
}

/// Marks every dimension of `loop` with `processor`.
LogicalResult mapAll(scf::ParallelOp loop, gpu::Processor processor) {
  SmallVector<gpu::Processor> processors(loop.getNumLoops(), processor);
  return mapLoop(loop, processors);
}

struct MapParallelLoopsPass final
    : impl::MapParallelLoopsPassBase<MapParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn.isPublic() || fn.isExternal()) {
      return;
    }
    if (blockSize < 1 || blockSize > 1024) {
      fn.emitError("block-size must be between 1 and 1024");
      return signalPassFailure();
    }
    wrapHostCode(fn);
    if (failed(shareValuesAcrossKernels(fn))) {
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    WarpReductionOptions warp;
    warp.blockSize = blockSize;
    warp.maxPoints = warpMaxPoints;
    warp.minLength = warpMinLength;
    SmallVector<scf::ParallelOp> kernels(
        fn.getBody().front().getOps<scf::ParallelOp>());
    for (scf::ParallelOp loop : kernels) {
      if (warpReductions && mapAsWarpReduction(rewriter, loop, warp)) {
        continue;
      }
      if (failed(mapKernel(rewriter, loop))) {
        return signalPassFailure();
      }
    }
  }

  /// Moves each run of top-level ops that must run on the device into a
  /// one-iteration scf.parallel.
  void wrapHostCode(func::FuncOp fn) {
    Block &body = fn.getBody().front();
    SmallVector<SmallVector<Operation *>> runs;
    bool open = false;
    for (Operation &op : body) {
      if (staysOnHost(&op) || isa<scf::ParallelOp, gpu::LaunchOp>(op)) {
        open = false;
        continue;
      }
      if (!open) {
        runs.emplace_back();
        open = true;
      }
      runs.back().push_back(&op);
    }
    for (SmallVector<Operation *> &run : runs) {
      OpBuilder builder(run.front());
      Location loc = run.front()->getLoc();
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      auto single = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                            ValueRange{one}, ValueRange{one});
      Block *inner = single.getBody();
      for (Operation *op : run) {
        op->moveBefore(inner->getTerminator());
      }
    }
  }

  /// Kernels cannot pass values to each other except through memory. A
  /// value one kernel computes from constants and loads of memory that
  /// nothing writes from that kernel up to the one that uses it is
  /// computed again there (the workspace is planned afterwards, so those
  /// buffers stay alive); any other such value is an error naming its
  /// node.
  LogicalResult shareValuesAcrossKernels(func::FuncOp fn) {
    Block &body = fn.getBody().front();
    auto kernelOf = [&](Operation *op) -> Operation * {
      Operation *top = body.findAncestorOpInBlock(*op);
      return top && isa<scf::ParallelOp, gpu::LaunchOp>(top) ? top : nullptr;
    };
    for (Operation &kernel : body) {
      if (!isa<scf::ParallelOp, gpu::LaunchOp>(kernel)) {
        continue;
      }
      Block &entry = kernel.getRegion(0).front();
      OpBuilder builder(&entry, entry.begin());
      IRMapping copies;
      WalkResult walk = kernel.walk([&](Operation *user) {
        for (OpOperand &operand : user->getOpOperands()) {
          Operation *def = operand.get().getDefiningOp();
          Operation *from = def ? kernelOf(def) : nullptr;
          if (!from || from == &kernel) {
            continue;
          }
          FailureOr<Value> copy =
              recompute(builder, operand.get(), copies, &kernel);
          if (failed(copy)) {
            def->emitError("a value computed here is used outside the "
                           "device code that computes it, which the CUDA "
                           "target cannot run yet");
            return WalkResult::interrupt();
          }
          operand.set(*copy);
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted()) {
        return failure();
      }
    }
    // The originals may now be dead.
    for (Operation &kernel : body) {
      if (!isa<scf::ParallelOp, gpu::LaunchOp>(kernel)) {
        continue;
      }
      SmallVector<Operation *> ops;
      for (Operation &op : kernel.getRegion(0).front()) {
        ops.push_back(&op);
      }
      for (Operation *op : llvm::reverse(ops)) {
        if (isOpTriviallyDead(op)) {
          op->erase();
        }
      }
    }
    return success();
  }

  /// Clones the pure ops and loads of unchanged memory `value` depends on at
  /// `builder`'s point; ops that stay on the host are used as they are.
  FailureOr<Value> recompute(OpBuilder &builder, Value value, IRMapping &copies,
                             Operation *to) {
    if (Value done = copies.lookupOrNull(value)) {
      return done;
    }
    // After wrapping, every other top-level op is a kernel.
    Operation *def = value.getDefiningOp();
    if (!def || staysOnHost(def)) {
      return value;
    }
    auto load = dyn_cast<memref::LoadOp>(def);
    bool pure = def->getNumRegions() == 0 && isPure(def);
    if (!pure && !(load && unchanged(load, to))) {
      return failure();
    }
    for (Value operand : def->getOperands()) {
      FailureOr<Value> copy = recompute(builder, operand, copies, to);
      if (failed(copy)) {
        return failure();
      }
      copies.map(operand, *copy);
    }
    Operation *clone = builder.clone(*def, copies);
    return clone->getResult(cast<OpResult>(value).getResultNumber());
  }

  /// Whether nothing after `load` up to (not including) the top-level op
  /// `to` writes the memref it reads or a view of it.
  static bool unchanged(memref::LoadOp load, Operation *to) {
    Value memref = load.getMemRef();
    // The buffer and its views.
    SmallVector<Value> aliases{memref};
    Value root = memref;
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>()) {
      root = view.getViewSource();
      aliases.push_back(root);
    }
    for (size_t i = 0; i < aliases.size(); ++i) {
      for (Operation *user : aliases[i].getUsers()) {
        auto view = dyn_cast<ViewLikeOpInterface>(user);
        if (view && view.getViewSource() == aliases[i] &&
            !llvm::is_contained(aliases, user->getResult(0))) {
          aliases.push_back(user->getResult(0));
        }
      }
    }
    auto writes = [&](Operation *op) {
      return op
          ->walk([&](Operation *inner) {
            // A launch's effects are its body's, which the walk visits; a
            // check writes only the run's status.
            if (isa<gpu::LaunchOp, cf::AssertOp>(inner)) {
              return WalkResult::advance();
            }
            auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
            if (!effects) {
              return inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
                             inner->getNumRegions() == 0
                         ? WalkResult::advance()
                         : WalkResult::interrupt();
            }
            SmallVector<MemoryEffects::EffectInstance> list;
            effects.getEffects(list);
            for (auto &effect : list) {
              if (!isa<MemoryEffects::Write>(effect.getEffect())) {
                continue;
              }
              Value target = effect.getValue();
              if (!target || llvm::is_contained(aliases, target)) {
                return WalkResult::interrupt();
              }
            }
            return WalkResult::advance();
          })
          .wasInterrupted();
    };
    // The rest of each region around the load, then the ops up to `to`.
    Operation *at = load;
    for (; at->getParentOp() != to->getParentOp(); at = at->getParentOp()) {
      for (Operation *op = at->getNextNode(); op; op = op->getNextNode()) {
        if (writes(op)) {
          return false;
        }
      }
    }
    for (Operation *op = at->getNextNode(); op && op != to;
         op = op->getNextNode()) {
      if (writes(op)) {
        return false;
      }
    }
    return true;
  }

  LogicalResult mapKernel(IRRewriter &rewriter, scf::ParallelOp loop) {
    for (Value bound : llvm::concat<Value>(
             loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
      if (!getConstantIntValue(bound)) {
        return loop.emitError("a loop bound known only at run time: the "
                              "CUDA target needs static shapes");
      }
    }
    // Inner parallel loops run sequentially in their thread.
    WalkResult nested = loop.getBody()->walk([&](scf::ParallelOp inner) {
      return failed(mapAll(inner, gpu::Processor::Sequential))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (nested.wasInterrupted()) {
      return failure();
    }
    // Points in the iteration space (bounds were checked to be constants).
    int64_t trips = pointCount(loop).value_or(0);
    // One dimension: the iteration space flattened (row-major).
    loop = collapseToOneDim(rewriter, loop);
    // Blocks of block-size threads; the last block's surplus threads skip.
    int64_t threads = std::max<int64_t>(1, std::min<int64_t>(blockSize, trips));
    auto [blocks, inner] =
        scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);
    if (failed(mapAll(blocks, gpu::Processor::BlockX)) ||
        failed(mapAll(inner, gpu::Processor::ThreadX))) {
      return failure();
    }
    return success();
  }
};

} // namespace

} // namespace infer::cuda
