//===- LowerGraphToLinalg.cpp - the graph -> linalg conversion ------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace infer::lowering {
#define GEN_PASS_DEF_LOWERGRAPHTOLINALGPASS
#include "passes/lowering/Passes.h.inc"

GraphTypeConverter::GraphTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    if (auto integer = dyn_cast<IntegerType>(type.getElementType());
        integer && !integer.isSignless()) {
      return RankedTensorType::get(
          type.getShape(),
          IntegerType::get(type.getContext(), integer.getWidth()));
    }
    return type;
  });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

namespace {

struct LowerGraphToLinalgPass final
    : impl::LowerGraphToLinalgPassBase<LowerGraphToLinalgPass> {
  using LowerGraphToLinalgPassBase::LowerGraphToLinalgPassBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    if (checks) {
      module->setAttr(kChecksAttr, UnitAttr::get(ctx));
    }
    GraphTypeConverter converter;
    RewritePatternSet patterns(ctx);
    populateElementwiseLoweringPatterns(converter, patterns);
    populateMatMulLoweringPatterns(converter, patterns);
    populateConvLoweringPatterns(converter, patterns);
    populateConvTransposeLoweringPatterns(converter, patterns);
    populatePoolLoweringPatterns(converter, patterns);
    populateNormalizationLoweringPatterns(converter, patterns);
    populateSoftmaxLoweringPatterns(converter, patterns);
    populateRecurrentLoweringPatterns(converter, patterns);
    populateLinearAlgebraLoweringPatterns(converter, patterns);
    populateSamplingLoweringPatterns(converter, patterns);
    populateTrainingLoweringPatterns(converter, patterns);
    populateShapeLoweringPatterns(converter, patterns);
    populateRearrangeLoweringPatterns(converter, patterns);
    populateRuntimeShapeLoweringPatterns(converter, patterns);
    populateGeneratorLoweringPatterns(converter, patterns);
    populateIndexingLoweringPatterns(converter, patterns);
    populateResizeLoweringPatterns(converter, patterns);
    populateSignalLoweringPatterns(converter, patterns);
    populateSpectralLoweringPatterns(converter, patterns);
    populateNGramLoweringPatterns(converter, patterns);
    populateUniqueLoweringPatterns(converter, patterns);
    populateDataDependentLoweringPatterns(converter, patterns);
    populateReductionLoweringPatterns(converter, patterns);
    populateQuantLoweringPatterns(converter, patterns);
    populateControlFlowLoweringPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(*ctx);
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect, cf::ControlFlowDialect>();
    target.addIllegalDialect<graph::GraphDialect>();
    target.addLegalOp<graph::NoneOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });
    LogicalResult converted =
        applyPartialConversion(module, target, std::move(patterns));
    module->removeAttr(kChecksAttr);
    if (failed(converted)) {
      return signalPassFailure();
    }
    // Absent optional values are no longer used by anything.
    getOperation().walk([](graph::NoneOp op) {
      if (op->use_empty()) {
        op->erase();
      }
    });
    // The caller owns the model's inputs: bufferization must not compute
    // results in place in them.
    auto readOnly = BoolAttr::get(ctx, false);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isPublic() && !fn.isExternal()) {
        for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
          fn.setArgAttr(i, "bufferization.writable", readOnly);
        }
      }
    }
  }
};

} // namespace
} // namespace infer::lowering
