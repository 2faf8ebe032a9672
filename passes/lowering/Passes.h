//===- Passes.h - graph -> linalg lowering ----------------------*- C++ -*-===//

#ifndef INFER_PASSES_LOWERING_PASSES_H
#define INFER_PASSES_LOWERING_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace infer::lowering {

#define GEN_PASS_DECL
#include "passes/lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/lowering/Passes.h.inc"

/// Element types after lowering: unsigned integers become signless.
class GraphTypeConverter : public mlir::TypeConverter {
public:
  GraphTypeConverter();
};

// The pattern families, one per file, grouped by the dialect's op
// categories (dialects/graph/IR/*Ops.td) in subdirectories.

// elementwise/
void populateElementwiseLoweringPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

// nn/
void populateMatMulLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateConvLoweringPatterns(const mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateConvTransposeLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populatePoolLoweringPatterns(const mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateNormalizationLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populateSoftmaxLoweringPatterns(const mlir::TypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateRecurrentLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateLinearAlgebraLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populateSamplingLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateTrainingLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

// tensor/
void populateShapeLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
/// Pad, DepthToSpace/SpaceToDepth, ReverseSequence.
void populateRearrangeLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateRuntimeShapeLoweringPatterns(const mlir::TypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
void populateGeneratorLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateIndexingLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateResizeLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateSignalLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateSpectralLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateNGramLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateUniqueLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateDataDependentLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);

// reduction/
void populateReductionLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

// quant/
void populateQuantLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);

// controlflow/
void populateControlFlowLoweringPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_PASSES_H
