//===- TensorTypes.h - what a lowering pattern accepts ----------*- C++ -*-===//
//
// The types graph values lower to (signless, static or with `?` dims),
// the checks a pattern runs on its operands before it applies, constant
// operands, and the pattern bases StaticPattern and CheckedPattern.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSORTYPES_H
#define INFER_PASSES_LOWERING_TENSORTYPES_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "passes/lowering/RuntimeChecks.h"

namespace infer::lowering {

/// The converted (signless, static) tensor type of a graph value's type, or
/// null when it is not a statically shaped tensor of a supported type.
mlir::RankedTensorType loweredTensorType(mlir::Type type);

/// Like loweredTensorType, with dynamic dims allowed (the generic variant of
/// a model with `?` dims).
mlir::RankedTensorType loweredAnyShapeType(mlir::Type type);

/// True when the element type of `type` (a graph tensor) is unsigned.
bool isUnsignedTensor(mlir::Type type);

/// Fails the match unless every tensor operand and result of `op` has a
/// static shape and a supported element type.
llvm::LogicalResult
checkStaticTensors(mlir::Operation *op,
                   mlir::ConversionPatternRewriter &rewriter);

/// Like checkStaticTensors; `allowDynamic` also accepts `?` dims, for
/// patterns that size their results at run time.
llvm::LogicalResult checkTensors(mlir::Operation *op,
                                 mlir::ConversionPatternRewriter &rewriter,
                                 bool allowDynamic);

/// The integer values of a graph value that is a constant (after folding).
std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value);

/// True when no tensor of `op` has a dynamic dim but its leading one: what
/// the window ops (Conv, pooling) support in the generic variant.
bool onlyBatchDynamic(mlir::Operation *op);

/// A `graph.none` value, for results that are absent.
mlir::Value noneValue(mlir::OpBuilder &b, mlir::Location loc);

/// A pattern for an op of static tensors (checkTensors); `supportsDynamic`
/// lets a lowering that sizes its results at run time accept `?` dims.
template <typename Op>
struct StaticPattern : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  using Adaptor = typename Op::Adaptor;

  llvm::LogicalResult
  matchAndRewrite(Op op, Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    if (failed(checkTensors(op, rewriter, supportsDynamic(op)))) {
      return mlir::failure();
    }
    return lower(op, adaptor, rewriter);
  }
  virtual llvm::LogicalResult
  lower(Op op, Adaptor adaptor,
        mlir::ConversionPatternRewriter &rewriter) const = 0;
  /// Whether `lower` handles the dynamic dims `op` has (the generic
  /// variant); patterns that size results at run time override it.
  virtual bool supportsDynamic(Op op) const { return false; }
  mlir::RankedTensorType resultType(mlir::Value v) const {
    return loweredAnyShapeType(v.getType());
  }
};

/// A pattern for an op of static tensors whose output length or shape the
/// data decides (a data-dependent count, sizes read from input values): it
/// applies only when the lowering emits run-time checks, which refuse a
/// run whose data gives another shape than the declared one.
template <typename Op>
struct CheckedPattern : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  llvm::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    if (failed(checkStaticTensors(op, rewriter))) {
      return mlir::failure();
    }
    if (!checksEnabled(op)) {
      return rewriter.notifyMatchFailure(
          op, "needs run-time checks (a length or shape the data decides)");
    }
    return lower(op, adaptor, rewriter);
  }
  virtual llvm::LogicalResult
  lower(Op op, typename Op::Adaptor adaptor,
        mlir::ConversionPatternRewriter &rewriter) const = 0;
};

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSORTYPES_H
