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

void populateElementwiseLoweringPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateShapeLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
/// ConstantOfShape, Range, Trilu, EyeLike (GeneratorLowering.cpp).
void populateGeneratorLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
/// Expand, Reshape and Tile whose result is sized from a shape operand
/// read at run time (RuntimeShapeLowering.cpp).
void populateRuntimeShapeLoweringPatterns(const mlir::TypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
void populateContractionLoweringPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateIndexingLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateResizeLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateQuantLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateUniqueLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateSpectralLoweringPatterns(const mlir::TypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateNGramLoweringPatterns(const mlir::TypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateSignalLoweringPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateLossLoweringPatterns(const mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateControlFlowLoweringPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateRecurrentLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateDataDependentLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populateLinearAlgebraLoweringPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
void populateReductionLoweringPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_PASSES_H
