//===- ApproximateMath.cpp - f32 math functions as inline polynomials -----===//
//
// A libm call per element keeps a loop scalar (LLVM does not vectorize
// across it) and costs a call per lane inside vector code. MLIR's
// polynomial approximations replace the call with arithmetic the
// vectorizer can widen.
//
//===----------------------------------------------------------------------===//

#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "targets/common/Passes.h.inc"

namespace {

/// The functions whose approximation error test/e2e/math_accuracy.py
/// bounds; sin, cos, atan and the rest keep their libm calls.
constexpr llvm::StringLiteral kDefaultFunctions[] = {"exp", "tanh", "erf",
                                                     "log", "log1p"};

/// MLIR's log approximation takes a subnormal input for the smallest
/// normal float (log(1e-45) = -87.3 instead of -103.3). Subnormal inputs
/// are scaled by 2^24 into the normal range and the logarithm corrected
/// by 24 ln 2; zero, negative and NaN inputs keep their results.
void scaleSubnormalLogInput(math::LogOp op) {
  Type type = op.getType();
  if (!getElementTypeOrSelf(type).isF32()) {
    return;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto constant = [&](float v) -> Value {
    auto attr = b.getF32FloatAttr(v);
    if (auto vector = dyn_cast<VectorType>(type)) {
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(vector, attr));
    }
    return arith::ConstantOp::create(b, loc, attr);
  };
  Value x = op.getOperand();
  Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                     constant(0x1p-126f));
  Value scaled = arith::MulFOp::create(b, loc, x, constant(0x1p24f));
  op.getOperandMutable().assign(
      arith::SelectOp::create(b, loc, tiny, scaled, x));
  b.setInsertionPointAfter(op);
  Value corrected = arith::SubFOp::create(b, loc, op.getResult(),
                                          constant(24 * 0.69314718055994531f));
  Value result = arith::SelectOp::create(b, loc, tiny, corrected, op);
  op.getResult().replaceAllUsesExcept(
      result, SmallPtrSet<Operation *, 2>{corrected.getDefiningOp(),
                                          result.getDefiningOp()});
}

struct ApproximateMathPass final
    : impl::ApproximateMathPassBase<ApproximateMathPass> {
  using ApproximateMathPassBase::ApproximateMathPassBase;

  void runOnOperation() override {
    SmallVector<std::string> selected(functions.begin(), functions.end());
    if (selected.empty()) {
      selected.assign(std::begin(kDefaultFunctions),
                      std::end(kDefaultFunctions));
    }
    auto chosen = [&](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained(selected, name);
    };
    if (chosen("log")) {
      getOperation().walk(scaleSubnormalLogInput);
    }
    // Only the chosen ops and what their rewrites make: no folding or
    // simplification of the rest of the function on the way.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
          chosen(op->getName().getStringRef())) {
        ops.push_back(op);
      }
    });
    if (ops.empty()) {
      return;
    }
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, chosen);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config))) {
      // Not converging leaves some calls in place: still correct code.
      getOperation().emitWarning("math approximations did not converge");
    }
  }
};

} // namespace
} // namespace infer::targets
