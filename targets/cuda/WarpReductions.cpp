//===- WarpReductions.cpp - reduction kernels as one warp per output ------===//

#include "targets/cuda/WarpReductions.h"
#include "targets/cuda/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace infer::cuda {
namespace {

constexpr int64_t kWarpSize = 32;

/// How a reduction's combining op reduces across lanes and what its
/// identity is.
struct Combine {
  gpu::AllReduceOperation lanes;
  arith::AtomicRMWKind kind;
};

std::optional<Combine> combineOf(Operation *op) {
  using G = gpu::AllReduceOperation;
  using K = arith::AtomicRMWKind;
  return llvm::TypeSwitch<Operation *, std::optional<Combine>>(op)
      .Case([](arith::AddFOp) { return Combine{G::ADD, K::addf}; })
      .Case([](arith::AddIOp) { return Combine{G::ADD, K::addi}; })
      .Case([](arith::MulFOp) { return Combine{G::MUL, K::mulf}; })
      .Case([](arith::MulIOp) { return Combine{G::MUL, K::muli}; })
      .Case([](arith::MaxNumFOp) { return Combine{G::MAXNUMF, K::maxnumf}; })
      .Case([](arith::MinNumFOp) { return Combine{G::MINNUMF, K::minnumf}; })
      .Case([](arith::MaximumFOp) { return Combine{G::MAXIMUMF, K::maximumf}; })
      .Case([](arith::MinimumFOp) { return Combine{G::MINIMUMF, K::minimumf}; })
      .Case([](arith::MaxSIOp) { return Combine{G::MAXSI, K::maxs}; })
      .Case([](arith::MinSIOp) { return Combine{G::MINSI, K::mins}; })
      .Case([](arith::MaxUIOp) { return Combine{G::MAXUI, K::maxu}; })
      .Case([](arith::MinUIOp) { return Combine{G::MINUI, K::minu}; })
      .Case([](arith::AndIOp) { return Combine{G::AND, K::andi}; })
      .Case([](arith::OrIOp) { return Combine{G::OR, K::ori}; })
      .Default([](Operation *) { return std::nullopt; });
}

bool isPureLeaf(Operation &op) {
  return op.getNumRegions() == 0 && isPure(&op);
}

/// Only reads memory (or nothing), including nested ops.
bool onlyReads(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](auto &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

/// A kernel whose points each reduce into one output element.
struct Reduction {
  /// Outermost first; the innermost holds the combine.
  SmallVector<scf::ForOp> nest;
  memref::LoadOp accumulator;
  Operation *combine = nullptr;
  memref::StoreOp store;
  Combine kind;
  int64_t points = 1;
  int64_t length = 1;
};

std::optional<Reduction> matchReduction(scf::ParallelOp loop) {
  Reduction r;
  if (loop.getNumReductions() != 0 ||
      loop->hasAttr(gpu::getMappingAttrName())) {
    return std::nullopt;
  }
  std::optional<int64_t> points = pointCount(loop);
  if (!points) {
    return std::nullopt;
  }
  r.points = *points;
  // Pure index math and (in a wrapped full reduction) the init stores, then
  // the nest.
  Block *body = loop.getBody();
  auto root =
      dyn_cast_or_null<scf::ForOp>(body->getTerminator()->getPrevNode());
  if (!root) {
    return std::nullopt;
  }
  llvm::SmallPtrSet<Value, 4> written;
  for (Operation &op : body->without_terminator()) {
    if (&op == root.getOperation()) {
      break;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      written.insert(store.getMemRef());
    } else if (!isPureLeaf(op)) {
      return std::nullopt;
    }
  }
  for (scf::ForOp level = root; level;) {
    std::optional<int64_t> trips = tripCount(
        level.getLowerBound(), level.getUpperBound(), level.getStep());
    if (!trips || level.getNumRegionIterArgs() != 0) {
      return std::nullopt;
    }
    r.length *= *trips;
    r.nest.push_back(level);
    auto inner = dyn_cast_or_null<scf::ForOp>(
        level.getBody()->getTerminator()->getPrevNode());
    if (inner && !llvm::all_of(
                     level.getBody()->without_terminator(), [&](Operation &op) {
                       return &op == inner.getOperation() || isPureLeaf(op);
                     })) {
      inner = nullptr;
    }
    level = inner;
  }
  // The innermost body: reads, pure math, one store of combine(load, x).
  for (Operation &op : r.nest.back().getBody()->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (r.store) {
        return std::nullopt;
      }
      r.store = store;
    } else if (!onlyReads(&op)) {
      return std::nullopt;
    }
  }
  if (!r.store) {
    return std::nullopt;
  }
  Type element = r.store.getValueToStore().getType();
  if (!element.isF32() && !element.isInteger(32)) {
    return std::nullopt;
  }
  for (Value index : r.store.getIndices()) {
    Operation *owner = isa<BlockArgument>(index)
                           ? index.getParentBlock()->getParentOp()
                           : index.getDefiningOp();
    if (root->isAncestor(owner)) {
      return std::nullopt;
    }
  }
  r.combine = r.store.getValueToStore().getDefiningOp();
  std::optional<Combine> kind = r.combine ? combineOf(r.combine) : std::nullopt;
  if (!kind || r.combine->getBlock() != r.store->getBlock()) {
    return std::nullopt;
  }
  r.kind = *kind;
  for (Value operand : r.combine->getOperands()) {
    auto load = operand.getDefiningOp<memref::LoadOp>();
    if (load && load.getMemRef() == r.store.getMemRef() &&
        load.getIndices() == r.store.getIndices() && load->hasOneUse() &&
        r.combine->getOperand(0) != r.combine->getOperand(1)) {
      r.accumulator = load;
    }
  }
  if (!r.accumulator) {
    return std::nullopt;
  }
  // Lanes read their inputs while lane 0 alone writes: nothing the kernel
  // writes may be read elsewhere in the nest.
  written.insert(r.store.getMemRef());
  WalkResult reads = root.walk([&](memref::LoadOp load) {
    return load != r.accumulator && written.contains(load.getMemRef())
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (reads.wasInterrupted()) {
    return std::nullopt;
  }
  return r;
}

/// Moves the pure ops between the nest's loops to the top of the innermost
/// body, in order, so the nest can be flattened.
void sinkIntoInnermost(MutableArrayRef<scf::ForOp> nest) {
  Block *innermost = nest.back().getBody();
  for (size_t level = nest.size() - 1; level-- > 0;) {
    Operation *anchor = &innermost->front();
    for (Operation &op : llvm::make_early_inc_range(
             nest[level].getBody()->without_terminator())) {
      if (&op == nest[level + 1].getOperation()) {
        break;
      }
      op.moveBefore(anchor);
    }
  }
}

Value affine(OpBuilder &b, Location loc, Value x, Value lb, Value step) {
  Value scaled = arith::MulIOp::create(b, loc, x, step);
  return arith::AddIOp::create(b, loc, lb, scaled);
}

} // namespace

bool mapAsWarpReduction(RewriterBase &rewriter, scf::ParallelOp &loop,
                        const WarpReductionOptions &options) {
  std::optional<Reduction> found = matchReduction(loop);
  if (!found || found->length < options.minLength ||
      found->points > options.maxPoints) {
    return false;
  }
  // One dimension of points (collapsing rebuilds the loop, so match again).
  if (loop.getNumLoops() > 1) {
    loop = collapseToOneDim(rewriter, loop);
    // The collapsed bound is a product of constants: make it one.
    rewriter.setInsertionPoint(loop);
    loop.getUpperBoundMutable().assign(
        arith::ConstantIndexOp::create(rewriter, loop.getLoc(), found->points)
            .getResult());
    found = matchReduction(loop);
    if (!found) {
      return false;
    }
  }
  Reduction &r = *found;
  sinkIntoInnermost(r.nest);

  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  int64_t warps = std::clamp<int64_t>(options.blockSize / kWarpSize, 1,
                                      std::max<int64_t>(r.points, 1));
  Value zero = index(0), one = index(1), lanes = index(kWarpSize);
  Value points = index(r.points), perBlock = index(warps);
  Value length = index(r.length);

  // Blocks of `warps` points; in a block, thread_y picks the point and
  // thread_x the lane, so each warp shares one point.
  auto blocks =
      scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                              ValueRange{points}, ValueRange{perBlock});
  rewriter.setInsertionPointToStart(blocks.getBody());
  auto threads = scf::ParallelOp::create(rewriter, loc, ValueRange{zero, zero},
                                         ValueRange{perBlock, lanes},
                                         ValueRange{one, one});
  rewriter.setInsertionPointToStart(threads.getBody());
  Value lane = threads.getInductionVars()[1];
  Value point =
      arith::AddIOp::create(rewriter, loc, blocks.getInductionVars()[0],
                            threads.getInductionVars()[0]);
  Value inRange = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, point, points);
  auto guard = scf::IfOp::create(rewriter, loc, inRange, /*withElse=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());

  IRMapping map;
  map.map(
      loop.getInductionVars()[0],
      affine(rewriter, loc, point, loop.getLowerBound()[0], loop.getStep()[0]));
  SmallVector<Operation *> initStores;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == r.nest.front().getOperation()) {
      break;
    }
    if (isa<memref::StoreOp>(op)) {
      initStores.push_back(&op);
    } else {
      rewriter.clone(op, map);
    }
  }

  // Each lane folds every 32nd element of the flattened reduction.
  Type element = r.store.getValueToStore().getType();
  Value identity = arith::getIdentityValue(r.kind.kind, element, rewriter, loc);
  auto partial = scf::ForOp::create(
      rewriter, loc, lane, length, lanes, ValueRange{identity},
      [&](OpBuilder &b, Location bodyLoc, Value flat, ValueRange acc) {
        SmallVector<int64_t> trips;
        for (scf::ForOp f : r.nest) {
          trips.push_back(
              *tripCount(f.getLowerBound(), f.getUpperBound(), f.getStep()));
        }
        SmallVector<Value> at = delinearize(b, bodyLoc, flat, trips);
        for (auto [f, i] : llvm::zip(r.nest, at)) {
          map.map(f.getInductionVar(),
                  affine(b, bodyLoc, i, f.getLowerBound(), f.getStep()));
        }
        map.map(r.accumulator.getResult(), acc[0]);
        for (Operation &op : r.nest.back().getBody()->without_terminator()) {
          if (&op != r.accumulator.getOperation() &&
              &op != r.store.getOperation()) {
            b.clone(op, map);
          }
        }
        scf::YieldOp::create(b, bodyLoc, map.lookup(r.combine->getResult(0)));
      });
  Value total = gpu::SubgroupReduceOp::create(
      rewriter, loc, partial.getResult(0), r.kind.lanes, /*uniform=*/true);

  // Lane 0 runs the init stores, then folds the total into the output.
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      lane, zero);
  auto write = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
  rewriter.setInsertionPointToStart(write.thenBlock());
  for (Operation *store : initStores) {
    rewriter.clone(*store, map);
  }
  Operation *old = rewriter.clone(*r.accumulator, map);
  map.map(r.accumulator.getResult(), old->getResult(0));
  for (Value operand : r.combine->getOperands()) {
    if (operand != r.accumulator.getResult()) {
      map.map(operand, total);
    }
  }
  rewriter.clone(*r.combine, map);
  rewriter.clone(*r.store, map);

  rewriter.eraseOp(loop);
  loop = blocks;
  (void)mapLoop(blocks, {gpu::Processor::BlockX});
  (void)mapLoop(threads, {gpu::Processor::ThreadY, gpu::Processor::ThreadX});
  return true;
}

} // namespace infer::cuda
