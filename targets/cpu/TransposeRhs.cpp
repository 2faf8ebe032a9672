//===- TransposeRhs.cpp - transposed B operands into row-major copies -----===//
//
// A contraction whose B operand is indexed (.., n, k) (X . W^T in a Gemm
// with transB, every recurrent layer's input and hidden projections, Q .
// K^T in attention) reads B along its rows only in k, not in n, so the
// register-tiled kernels would gather it. Here such a B is transposed once
// into a (.., k, n) tensor, right after it is defined: a weight or
// loop-invariant operand is transposed outside any loop (a recurrent
// layer's hidden projection: once per run, not once per time step), and
// the contraction reads the copy's rows contiguously.
//
//===----------------------------------------------------------------------===//

#include "passes/fusion/Passes.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_TRANSPOSERHSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Whether `op` is a static f32 contraction on tensors whose B map ends in
/// (n, k): n the innermost dim of C, k a reduction dim.
bool hasTransposedRhs(linalg::GenericOp op) {
  if (!fusion::isContraction(op) || !op.hasPureTensorSemantics()) {
    return false;
  }
  for (Type type : op->getOperandTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isF32()) {
      return false;
    }
  }
  AffineMap rhs = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (rhs.getNumResults() < 2 || out.getNumResults() < 1) {
    return false;
  }
  auto k = dyn_cast<AffineDimExpr>(rhs.getResults().back());
  auto n = dyn_cast<AffineDimExpr>(rhs.getResults()[rhs.getNumResults() - 2]);
  auto outN = dyn_cast<AffineDimExpr>(out.getResults().back());
  return k && n && outN && n == outN &&
         op.getIteratorTypesArray()[k.getPosition()] ==
             utils::IteratorType::reduction;
}

struct TransposeRhsPass final : impl::TransposeRhsPassBase<TransposeRhsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (hasTransposedRhs(op)) {
        found.push_back(op);
      }
    });
    for (linalg::GenericOp op : found) {
      OpOperand *rhs = op.getDpsInputOperand(1);
      Value value = rhs->get();
      auto type = cast<RankedTensorType>(value.getType());
      int64_t rank = type.getRank();
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(permutation[rank - 1], permutation[rank - 2]);
      SmallVector<int64_t> shape = applyPermutation(type.getShape(),
                                                    permutation);
      // Right after B is defined: outside the loops B does not vary in.
      OpBuilder b(op);
      if (Operation *def = value.getDefiningOp()) {
        b.setInsertionPointAfter(def);
      } else {
        b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
      }
      Location loc = op.getLoc();
      Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
      Value transposed =
          linalg::TransposeOp::create(b, loc, value, empty, permutation)
              .getResult()
              .front();
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      AffineMap map = maps[rhs->getOperandNumber()];
      SmallVector<AffineExpr> results(map.getResults());
      std::swap(results[rank - 1], results[rank - 2]);
      maps[rhs->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      rhs->set(transposed);
    }
  }
};

} // namespace
} // namespace infer::cpu
