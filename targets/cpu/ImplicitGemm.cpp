//===- ImplicitGemm.cpp - fold im2col copies into their contractions ------===//
//
// A convolution reaches the CPU target as
//
//   %col = linalg.generic (copy) ins(%x) ... x[n, g, c, o*s + k*d]
//   %b   = tensor.reshape %col : [n, g, c, k..., o...] -> [n, g, K, N]
//   %y   = linalg.generic (contraction) ins(%w, %b) outs(%init)
//
// Here the static reshape becomes a tensor.collapse_shape, upstream's
// expansion folds it into the contraction (whose K and N dims become
// c, k... and o...), and elementwise fusion pulls the copy in: the
// contraction then reads x through the window map, and the columns are
// never written. The control functions restrict both rewrites to this
// chain: every other reshape and copy stays as the lowering made it.
// Windows of stride (or dilation) 1 or 2 fold; wider ones keep the copy.
//
//===----------------------------------------------------------------------===//

#include "passes/fusion/Passes.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/PairDot.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_IMPLICITGEMMPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// A generic that copies its one input (through any affine map) into an
/// identity-mapped output.
bool isCopy(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity()) {
    return false;
  }
  auto yield = cast<linalg::YieldOp>(generic.getBlock()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == generic.getBlock()->getArgument(0);
}

/// An f32 contraction (or one over packed 8-bit lanes in i32, or over
/// bf16 pairs in i32 into f32) with
/// static shapes: the form the kernels take.
bool isStaticF32Contraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || !fusion::isContraction(op) ||
      !linalgOp.hasPureTensorSemantics()) {
    return false;
  }
  bool bytes = lowering::matchByteDot(linalgOp).has_value();
  bool pairs = lowering::matchPairDot(linalgOp);
  return llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
    auto shaped = dyn_cast<RankedTensorType>(operand.get().getType());
    bool packedInput = pairs && operand.getOperandNumber() < 2;
    return shaped && shaped.hasStaticShape() &&
           (bytes || packedInput ? shaped.getElementType().isInteger(32)
                                 : shaped.getElementType().isF32());
  });
}

/// Whether `operand` is the B operand (second input) of a contraction the
/// kernels take.
bool isContractionRhs(OpOperand *operand) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return linalgOp && isStaticF32Contraction(linalgOp) &&
         linalgOp.getNumDpsInputs() == 2 &&
         operand == linalgOp.getDpsInputOperand(1);
}

/// Whether the copy reads its input through a window whose stride (or
/// dilation) is over 2: a map result with a dim multiplied by more (x[o*3
/// + k]). The kernels read a stride-2 window's panel as runs of a row
/// with every other lane taken; wider strides would gather.
bool readsWideStridedWindow(Operation *copy) {
  auto generic = cast<linalg::GenericOp>(copy);
  AffineMap map = generic.getMatchingIndexingMap(generic.getDpsInputOperand(0));
  return llvm::any_of(map.getResults(), [](AffineExpr expr) {
    bool wide = false;
    expr.walk([&](AffineExpr e) {
      if (e.getKind() != AffineExprKind::Mul) {
        return;
      }
      auto factor =
          dyn_cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(e).getRHS());
      wide |= !factor || factor.getValue() > 2;
    });
    return wide;
  });
}

/// Rewrites the static `tensor.reshape` of a copy that feeds a
/// contraction's B operand into the `tensor.collapse_shape` it is.
void collapseCopyReshapes(func::FuncOp func) {
  SmallVector<tensor::ReshapeOp> reshapes;
  func.walk([&](tensor::ReshapeOp reshape) {
    if (reshape->hasOneUse() &&
        isContractionRhs(&*reshape->getUses().begin()) &&
        isCopy(reshape.getSource().getDefiningOp()) &&
        !readsWideStridedWindow(reshape.getSource().getDefiningOp()) &&
        reshape.getSource().hasOneUse()) {
      reshapes.push_back(reshape);
    }
  });
  for (tensor::ReshapeOp reshape : reshapes) {
    auto source = cast<RankedTensorType>(reshape.getSource().getType());
    auto result = cast<RankedTensorType>(reshape.getResult().getType());
    if (!source.hasStaticShape() || !result.hasStaticShape() ||
        result.getRank() >= source.getRank()) {
      continue;
    }
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForCollapse(source.getShape(),
                                           result.getShape());
    if (!groups) {
      continue;
    }
    OpBuilder b(reshape);
    Value collapsed = tensor::CollapseShapeOp::create(
        b, reshape.getLoc(), result, reshape.getSource(), *groups);
    reshape.getResult().replaceAllUsesWith(collapsed);
    reshape->erase();
  }
}

struct ImplicitGemmPass final : impl::ImplicitGemmPassBase<ImplicitGemmPass> {
  void runOnOperation() override {
    collapseCopyReshapes(getOperation());
    MLIRContext *context = &getContext();
    // Expand a contraction over the collapse of a copy on its B operand.
    linalg::ControlFusionFn expand = [](OpOperand *fused) {
      auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>();
      return collapse && isContractionRhs(fused) &&
             isCopy(collapse.getSrc().getDefiningOp()) &&
             collapse.getSrc().hasOneUse();
    };
    // Fuse that copy into it.
    linalg::ControlFusionFn fuse = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return isContractionRhs(fused) && isCopy(producer) &&
             producer->hasOneUse();
    };
    RewritePatternSet patterns(context);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, expand);
    linalg::populateElementwiseOpsFusionPatterns(patterns, fuse);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::cpu
