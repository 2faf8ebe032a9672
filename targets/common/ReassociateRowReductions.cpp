//===- ReassociateRowReductions.cpp - vector partial sums along rows ------===//
//
// A reduction over the innermost, contiguous loop (a Softmax's sum of
// exponentials, a LayerNorm's mean) is a chain of dependent adds when
// computed in order: one add latency per element, and the vectorizer may
// not reorder it. With `reassoc` on the combining op LLVM keeps partial
// sums in vector lanes and adds them up at the end, as ONNX Runtime's
// kernels do.
//
//===----------------------------------------------------------------------===//

#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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

struct ReassociateRowReductionsPass final
    : impl::ReassociateRowReductionsPassBase<ReassociateRowReductionsPass> {
  void runOnOperation() override {
    getOperation().walk([&](linalg::GenericOp op) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      if (op.getNumReductionLoops() != 1 ||
          iterators.back() != utils::IteratorType::reduction) {
        return;
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
    });
  }
};

} // namespace
} // namespace infer::targets
