//===- FuseChannelLoops.cpp - a kernel's loop inside its producer's -------===//
//
// infer-cpu-contraction-kernels marks the parallel loop of a kernel over
// chunks of C's rows whose next kernel (a depthwise convolution over the
// channels those rows are) may run chunk by chunk inside it
// (ChannelFusion.cpp says when), and the next kernel's parallel loop over
// the channels. This pass moves the second loop's body into the first's:
//
//   scf.parallel (%m0) = (0) to (M) step (G) { <rows m0 .. m0 + G of C> }
//   scf.parallel (%m) = (0) to (M) step (1) { <channel m> }
// ->
//   scf.parallel (%m0) = (0) to (M) step (G) {
//     <rows m0 .. m0 + G of C>
//     scf.for %m = %m0 to min(%m0 + G, M) { <channel m> }
//   }
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ChannelFusion.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_FUSECHANNELLOOPSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Inlines the loops of one iteration around `loop` (a kernel's unit
/// batch loops), innermost first.
void unwrap(scf::ParallelOp loop, RewriterBase &rewriter) {
  while (auto parent = dyn_cast<scf::ForOp>(loop->getParentOp())) {
    std::optional<int64_t> lb = getConstantIntValue(parent.getLowerBound()),
                           ub = getConstantIntValue(parent.getUpperBound()),
                           step = getConstantIntValue(parent.getStep());
    if (!lb || !ub || !step || *ub <= *lb || *ub - *lb > *step ||
        failed(parent.promoteIfSingleIteration(rewriter))) {
      return;
    }
  }
}

/// A one-dim loop from 0 to a constant, by a constant step: its bound and
/// step.
std::optional<std::pair<int64_t, int64_t>> rangeOf(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1 || loop.getNumResults() != 0 ||
      getConstantIntValue(loop.getLowerBound()[0]) != 0) {
    return std::nullopt;
  }
  std::optional<int64_t> bound = getConstantIntValue(loop.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  if (!bound || !step) {
    return std::nullopt;
  }
  return std::make_pair(*bound, *step);
}

/// Moves `second`'s body into `first`'s (see the file comment); false,
/// with nothing moved, when the two are not neighbours of the same range.
bool fuse(scf::ParallelOp first, scf::ParallelOp second) {
  std::optional<std::pair<int64_t, int64_t>> outer = rangeOf(first),
                                             inner = rangeOf(second);
  auto chunk = first->getAttrOfType<IntegerAttr>(kFuseNextAttr);
  if (!outer || !inner || !chunk || outer->second != chunk.getInt() ||
      inner->first != outer->first || inner->second != 1 ||
      first->getBlock() != second->getBlock() ||
      !first->isBeforeInBlock(second)) {
    return false;
  }
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (!isMemoryEffectFree(op) && !isViewOrConstant(op)) {
      return false;
    }
    between.push_back(op);
  }
  for (Operation *op : between) {
    op->moveBefore(first);
  }
  OpBuilder b(first.getBody()->getTerminator());
  Location loc = second.getLoc();
  Value begin = first.getInductionVars()[0];
  Value end = arith::MinSIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, begin, arith::ConstantIndexOp::create(b, loc, outer->second)),
      first.getUpperBound()[0]);
  auto rows = scf::ForOp::create(b, loc, begin, end,
                                 arith::ConstantIndexOp::create(b, loc, 1));
  b.setInsertionPoint(rows.getBody()->getTerminator());
  IRMapping mapping;
  mapping.map(second.getInductionVars()[0], rows.getInductionVar());
  for (Operation &op : second.getBody()->without_terminator()) {
    b.clone(op, mapping);
  }
  first->setLoc(
      FusedLoc::get(first.getContext(), {first.getLoc(), second.getLoc()}));
  second->erase();
  return true;
}

struct FuseChannelLoopsPass final
    : impl::FuseChannelLoopsPassBase<FuseChannelLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop->hasAttr(kFuseNextAttr) || loop->hasAttr(kFusedChannelsAttr)) {
        loops.push_back(loop);
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto [i, loop] : llvm::enumerate(loops)) {
      if (i + 1 < loops.size() && loop->hasAttr(kFuseNextAttr) &&
          loops[i + 1]->hasAttr(kFusedChannelsAttr)) {
        unwrap(loop, rewriter);
        unwrap(loops[i + 1], rewriter);
        fuse(loop, loops[i + 1]);
      }
    }
    getOperation().walk([&](scf::ParallelOp loop) {
      loop->removeAttr(kFuseNextAttr);
      loop->removeAttr(kFusedChannelsAttr);
    });
  }
};

} // namespace
} // namespace infer::cpu
