//===- ContractReductions.cpp - fuse only reduction multiply-adds ---------===//
//
// The target machines fuse a multiply and an add into an FMA only where
// the IR allows it (FPOpFusion::Standard); this pass allows it in the
// bodies of reductions, where the product feeds the accumulator.
//
//===----------------------------------------------------------------------===//

#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_CONTRACTREDUCTIONSPASS
#include "targets/common/Passes.h.inc"

namespace {

void allowContraction(Operation *op) {
  auto fmf = cast<arith::ArithFastMathInterface>(op);
  auto flags =
      fmf.getFastMathFlagsAttr().getValue() | arith::FastMathFlags::contract;
  op->setAttr(fmf.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(op->getContext(), flags));
}

/// Marks `acc + a * b` (either operand order) yielded by `op`'s body.
void markMultiplyAdds(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  for (Value yielded : body->getTerminator()->getOperands()) {
    auto add = yielded.getDefiningOp<arith::AddFOp>();
    if (!add) {
      continue;
    }
    for (auto [term, other] : {std::pair(add.getLhs(), add.getRhs()),
                               std::pair(add.getRhs(), add.getLhs())}) {
      // The other term must be the accumulator: the output's element.
      auto acc = dyn_cast<BlockArgument>(other);
      if (!acc || acc.getOwner() != body ||
          !op.isDpsInit(op.getMatchingOpOperand(acc))) {
        continue;
      }
      auto mul = term.getDefiningOp<arith::MulFOp>();
      if (mul && mul->hasOneUse()) {
        allowContraction(mul);
        allowContraction(add);
        break;
      }
    }
  }
}

struct ContractReductionsPass final
    : impl::ContractReductionsPassBase<ContractReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> reductions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0) {
        reductions.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : reductions) {
      if (!isa<linalg::GenericOp>(op)) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generic)) {
          continue;
        }
        op = *generic;
      }
      markMultiplyAdds(op);
    }
  }
};

} // namespace
} // namespace infer::targets
