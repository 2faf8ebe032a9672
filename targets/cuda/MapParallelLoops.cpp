//===- MapParallelLoops.cpp - loop nests -> GPU blocks and threads --------===//

#include "targets/cuda/Passes.h"
#include "targets/cuda/WarpReductions.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

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
    if (failed(wrapHostCode(fn))) {
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
  LogicalResult wrapHostCode(func::FuncOp fn) {
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
      llvm::SmallPtrSet<Operation *, 8> members(run.begin(), run.end());
      for (Operation *op : run) {
        for (Operation *user : op->getUsers()) {
          if (!members.contains(body.findAncestorOpInBlock(*user))) {
            return op->emitError("a value computed here is used outside "
                                 "the device code that computes it, which "
                                 "the CUDA target cannot run yet");
          }
        }
      }
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
    return success();
  }

  LogicalResult mapKernel(IRRewriter &rewriter, scf::ParallelOp loop) {
    for (Value bound : llvm::concat<Value>(loop.getLowerBound(),
                                           loop.getUpperBound(),
                                           loop.getStep())) {
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
    int64_t trips = 1;
    for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
      int64_t lb = *getConstantIntValue(loop.getLowerBound()[d]);
      int64_t ub = *getConstantIntValue(loop.getUpperBound()[d]);
      int64_t step = *getConstantIntValue(loop.getStep()[d]);
      trips *= ub > lb && step > 0 ? (ub - lb + step - 1) / step : 0;
    }
    // One dimension: the iteration space flattened (row-major).
    if (loop.getNumLoops() > 1) {
      std::vector<unsigned> all;
      for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
        all.push_back(d);
      }
      Operation *next = loop->getNextNode();
      collapseParallelLoops(rewriter, loop, {all});
      loop = cast<scf::ParallelOp>(next->getPrevNode());
    }
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

LogicalResult mapLoop(scf::ParallelOp loop,
                      ArrayRef<gpu::Processor> processors) {
  MLIRContext *ctx = loop.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (gpu::Processor processor : processors) {
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id));
  }
  return gpu::setMappingAttr(loop, mapping);
}

} // namespace infer::cuda
