//===- ReassociateRowReductions.cpp - vector partial sums along rows ------===//
//
// A reduction over the innermost, contiguous loop (a Softmax's sum of
// exponentials, a LayerNorm's mean) is a chain of dependent adds when
// computed in order: one add latency per element, and the vectorizer may
// not reorder it. With `reassoc` on the combining op LLVM keeps partial
// sums in vector lanes and adds them up at the end, as ONNX Runtime's
// kernels do. Trailing reduction loops over contiguous elements (a global
// average pool's H and W) fold into one first, and the reduction becomes
// loops that carry the sums in registers (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "targets/common/Passes.h"
#include "targets/common/ReductionLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_REASSOCIATEROWREDUCTIONSPASS
#include "targets/common/Passes.h.inc"

namespace {

/// The op of `op`'s body that combines the accumulator `acc` with a new
/// value into the yielded `result`, when it is an f32/f64 add or multiply.
Operation *combiner(linalg::GenericOp op, Value result) {
  Operation *def = result.getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::MulFOp>(def) ||
      def->getBlock() != op.getBody() ||
      !(def->getResult(0).getType().isF32() ||
        def->getResult(0).getType().isF64())) {
    return nullptr;
  }
  for (Value operand : def->getOperands()) {
    auto acc = dyn_cast<BlockArgument>(operand);
    if (acc && acc.getOwner() == op.getBody() &&
        op.isDpsInit(op.getMatchingOpOperand(acc)) && acc.hasOneUse()) {
      return def;
    }
  }
  return nullptr;
}

bool noIndexOps(linalg::GenericOp op) {
  return llvm::none_of(op.getBody()->getOperations(), [](Operation &inner) {
    return isa<linalg::IndexOp>(inner);
  });
}

/// The number of trailing loops of `op` that are reductions when every
/// reduction loop is one of them (a sum over a row, a plane or a whole
/// trailing block of the input), else 0.
unsigned trailingReductions(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned reductions = op.getNumReductionLoops();
  bool trailing = llvm::all_of(ArrayRef(iterators).take_back(reductions),
                               [](utils::IteratorType t) {
                                 return t == utils::IteratorType::reduction;
                               });
  return trailing ? reductions : 0;
}

/// Folds the `count` trailing reduction loops of `op` into one, when every
/// operand that they index reads them as its own trailing dims, in order,
/// over contiguous elements (a global average pool's H and W): the loop
/// nest then visits the same elements in the same order, as one loop that
/// LLVM vectorizes (with the sum in memory across two loops it keeps the
/// sum in memory and adds one element at a time). Returns the new op, or
/// `op` when a loop cannot fold.
linalg::GenericOp foldReductionLoops(linalg::GenericOp op, unsigned count,
                                     RewriterBase &rewriter) {
  unsigned loops = op.getNumLoops();
  unsigned first = loops - count;
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  MLIRContext *ctx = op.getContext();
  auto usesReduction = [&](AffineExpr e) {
    return llvm::any_of(llvm::seq(first, loops),
                        [&](unsigned d) { return e.isFunctionOfDim(d); });
  };
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ArrayRef<AffineExpr> results = map.getResults();
    if (llvm::none_of(results, usesReduction)) {
      maps.push_back(AffineMap::get(first + 1, 0, results, ctx));
      if (op.isDpsInput(&operand)) {
        inputs.push_back(operand.get());
      }
      continue;
    }
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (op.isDpsInit(&operand) || !type || results.size() < count) {
      return op;
    }
    unsigned lead = results.size() - count;
    for (unsigned i = 0; i < results.size(); ++i) {
      bool ok = i < lead
                    ? !usesReduction(results[i])
                    : results[i] == getAffineDimExpr(first + i - lead, ctx);
      if (!ok) {
        return op;
      }
    }
    SmallVector<ReassociationIndices> groups;
    for (unsigned i = 0; i < lead; ++i) {
      groups.push_back({static_cast<int64_t>(i)});
    }
    groups.emplace_back(
        llvm::to_vector(llvm::seq<int64_t>(lead, lead + count)));
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups)) {
      return op;
    }
    rewriter.setInsertionPoint(op);
    inputs.push_back(memref::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                     operand.get(), groups));
    SmallVector<AffineExpr> folded(results.take_front(lead));
    folded.push_back(getAffineDimExpr(first, ctx));
    maps.push_back(AffineMap::get(first + 1, 0, folded, ctx));
  }
  SmallVector<utils::IteratorType> iterators(first,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  rewriter.setInsertionPoint(op);
  auto folded =
      linalg::GenericOp::create(rewriter, op.getLoc(), TypeRange{}, inputs,
                                op.getDpsInits(), maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), folded.getRegion(),
                              folded.getRegion().end());
  folded->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.eraseOp(op);
  return folded;
}

/// Rewrites `op`, whose one reduction loop is its innermost, as loops that
/// carry the outputs' elements in registers across the reduction loop:
/// each is loaded before it and stored after it. linalg's own loops load
/// and store the element at every step, and when the input and the output
/// are views of one workspace LLVM cannot tell that the input's loads do
/// not read it, so it neither keeps the sum in a register nor vectorizes.
/// The elements are combined in the same order, or, with `vectorBits` and
/// only min/max results, in vector lanes (ReductionLoops.h). Returns false
/// (and leaves `op`) when an operand is indexed by more than loop indices
/// and constants, or an output by the reduction index.
bool carryInRegisters(linalg::GenericOp op, RewriterBase &rewriter,
                      int64_t vectorBits) {
  Location loc = op.getLoc();
  unsigned loops = op.getNumLoops();
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!llvm::all_of(map.getResults(),
                      [](AffineExpr e) {
                        return isa<AffineDimExpr, AffineConstantExpr>(e);
                      }) ||
        (op.isDpsInit(&operand) && map.isFunctionOfDim(loops - 1))) {
      return false;
    }
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lower, upper;
  for (Range range : ranges) {
    lower.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
    upper.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  }
  SmallVector<Value> ivs;
  for (unsigned d = 0; d + 1 < loops; ++d) {
    auto loop = scf::ForOp::create(rewriter, loc, lower[d], upper[d], one);
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  // Only the reduction index is missing from the outputs' maps.
  ivs.push_back(Value());
  SmallVector<Value> inits;
  SmallVector<SmallVector<Value>> outIndices;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    outIndices.push_back(
        *elementIndices(op.getMatchingIndexingMap(&init), ivs, rewriter, loc));
    inits.push_back(
        memref::LoadOp::create(rewriter, loc, init.get(), outIndices.back()));
  }
  SmallVector<Value> results =
      vectorBits && isExactVectorReduction(op)
          ? buildVectorReduction(op, rewriter, lower.back(), upper.back(),
                                 inits, ivs, vectorBits)
          : buildScalarReduction(op, rewriter, lower.back(), upper.back(),
                                 inits, ivs);
  for (auto [i, init] : llvm::enumerate(op.getDpsInits())) {
    memref::StoreOp::create(rewriter, loc, results[i], init, outIndices[i]);
  }
  rewriter.eraseOp(op);
  return true;
}

struct ReassociateRowReductionsPass final
    : impl::ReassociateRowReductionsPassBase<ReassociateRowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (trailingReductions(op) > 0) {
        ops.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      unsigned count = trailingReductions(op);
      if (count > 1 && op.hasPureBufferSemantics() && noIndexOps(op)) {
        op = foldReductionLoops(op, count, rewriter);
      }
      for (Value result : op.getBody()->getTerminator()->getOperands()) {
        Operation *def = combiner(op, result);
        if (!def) {
          continue;
        }
        auto fmf = cast<arith::ArithFastMathInterface>(def);
        auto flags = fmf.getFastMathFlagsAttr().getValue() |
                     arith::FastMathFlags::reassoc;
        def->setAttr(fmf.getFastMathAttrName(),
                     arith::FastMathFlagsAttr::get(def->getContext(), flags));
      }
      if (trailingReductions(op) == 1 && op.hasPureBufferSemantics() &&
          noIndexOps(op)) {
        carryInRegisters(op, rewriter, vectorBits);
      }
    }
  }
};

} // namespace
} // namespace infer::targets
