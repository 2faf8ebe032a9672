//===- LoweringUtils.h - helpers shared by graph lowerings ------*- C++ -*-===//

#ifndef INFER_PASSES_LOWERING_LOWERINGUTILS_H
#define INFER_PASSES_LOWERING_LOWERINGUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLFunctionalExtras.h"

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

/// A `tensor.empty` of a statically shaped `type`.
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type);

/// A `tensor.empty` of `type`, its dynamic dims sized by `sizes` (one entry
/// per dim; static entries are ignored).
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// A `tensor.empty` of `type` whose dynamic dims take their sizes from
/// `like` (see broadcastSizes).
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type, mlir::ValueRange like);

/// The size of dim `d` of `tensor`: an attribute when static, else a
/// `tensor.dim`.
mlir::OpFoldResult dimSize(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tensor, int64_t d);

/// The sizes of a result of `type` that `inputs` broadcast to (numpy,
/// right-aligned): a dynamic dim takes the size of the first input with a
/// dynamic dim at that position (hasBroadcastSizes says there is one).
llvm::SmallVector<mlir::OpFoldResult>
broadcastSizes(mlir::OpBuilder &b, mlir::Location loc,
               mlir::RankedTensorType type, mlir::ValueRange inputs);

/// Whether every dynamic dim of `type` has an input with a dynamic dim at
/// its (right-aligned) position.
bool hasBroadcastSizes(mlir::RankedTensorType type, mlir::ValueRange inputs);

/// A scalar constant of `type` (float, integer or index).
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// A tensor of `type` filled with `value`; dynamic dims sized from `like`
/// (see broadcastSizes) or `sizes`.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value value,
                         mlir::ValueRange like = {});
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value value,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// The indexing map reading `inputType` broadcast numpy-style to a result
/// of `resultRank` dimensions.
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx,
                             mlir::RankedTensorType inputType,
                             llvm::ArrayRef<int64_t> resultShape);

using ScalarBody = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// A `linalg.generic` computing `body` of the elements of `inputs`, each
/// broadcast to `resultType`. Dynamic result dims take their sizes from the
/// inputs; with `checked` (the op being lowered, when run-time checks are
/// on) a run whose dynamic input dims disagree fails a check naming it.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, ScalarBody body,
                             mlir::Operation *checked = nullptr);

/// The integer values of a graph value that is a constant (after folding).
std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value);

/// Casts scalar `v` to `to` with ONNX Cast semantics; `fromUnsigned` and
/// `toUnsigned` give the signedness the signless types lost.
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::Type to, bool fromUnsigned, bool toUnsigned);

/// The sizes of `type` whose only dynamic dim is the leading (batch) one,
/// taken from dim 0 of `source`.
llvm::SmallVector<mlir::OpFoldResult> batchSizes(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 mlir::RankedTensorType type,
                                                 mlir::Value source);

/// True when no tensor of `op` has a dynamic dim but its leading one: what
/// the window ops (Conv, pooling) support in the generic variant.
bool onlyBatchDynamic(mlir::Operation *op);

/// For a reshape that only inserts or removes unit dims: the input dim each
/// result dim comes from (-1 for unit dims); std::nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>>
reshapeDimSources(mlir::RankedTensorType from, mlir::RankedTensorType to);

/// Reshapes `value` to `type` (same number of elements; at most one dynamic
/// dim, sized from the element count, or only unit dims inserted or removed
/// (see reshapeDimSources)).
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::RankedTensorType type);

/// A `linalg.generic` with no inputs: `body` computes each element of
/// `resultType` from its indices (used by gathers and data movement ops,
/// which read their sources with `tensor.extract`). `sizes` (one per dim)
/// sizes a dynamic result.
mlir::Value
buildIndexed(mlir::OpBuilder &b, mlir::Location loc,
             mlir::RankedTensorType resultType,
             llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                            llvm::ArrayRef<mlir::Value>)>
                 body,
             llvm::ArrayRef<mlir::OpFoldResult> sizes = {});

/// Reduces `input` over `axes` (sorted, unique) starting from `init`;
/// `combine(acc, element)` folds one element in. Reduced dimensions are kept
/// as size 1 when `keepDims`.
mlir::Value
buildReduction(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
               llvm::ArrayRef<int64_t> axes, bool keepDims, mlir::Value init,
               llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                              mlir::Value, mlir::Value)>
                   combine);

/// softmax (or log-softmax) of float tensor `x` along `axis`, computed as
/// exp(x - max) / sum(exp(x - max)).
mlir::Value buildSoftmax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         int64_t axis, bool log);

/// out[batch..., m, n] = sum_k a[..., m, k] * b[..., k, n] (a, b of rank
/// >= 2, batch dims broadcast, optionally transposed), accumulated in the
/// result's element type.
mlir::Value buildMatmul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                        mlir::Value rhs, mlir::RankedTensorType resultType,
                        bool transA = false, bool transB = false);

/// A `graph.none` value, for results that are absent.
mlir::Value noneValue(mlir::OpBuilder &b, mlir::Location loc);

/// Reshapes a 1-d per-axis quantization parameter to broadcast along `axis`
/// of a rank `rank` tensor; scalars and 1-element tensors become rank 0.
mlir::Value perAxis(mlir::OpBuilder &b, mlir::Location loc, mlir::Value param,
                    int64_t axis, int64_t rank);

/// (x - zero_point) widened to i32 (`zp` may be null); a 1-d zero point
/// applies along `axis`.
mlir::Value widenMinusZp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         bool xUnsigned, mlir::Value zp, bool zpUnsigned,
                         int64_t axis);

/// The module attribute that asks the patterns for run-time checks (set by
/// infer-lower-graph-to-linalg{checks=true} while it runs).
inline constexpr llvm::StringLiteral kChecksAttr = "infer.lowering_checks";

/// When checks are on: a `cf.assert` that every element i of the integer
/// tensor `indices` lies in [-n, n-1], n being `bounds[0]`, or with
/// `perLastDim` `bounds[k]` for elements at position k of the last
/// dimension. Its message names `op`'s ONNX node. (The lowered code still
/// clamps indices so a bad one never reads out of bounds; the CPU target
/// turns the assert into the run's error status.)
void assertIndicesInRange(mlir::OpBuilder &b, mlir::Operation *op,
                          mlir::Value indices, llvm::ArrayRef<int64_t> bounds,
                          bool perLastDim = false);

/// "node 'NAME' (OpType)" from an importer location, or the op's name.
std::string describeNode(mlir::Operation *op);

/// Whether the lowering runs with run-time checks (see kChecksAttr).
bool checksEnabled(mlir::Operation *op);

/// A `cf.assert` of the i1 `flag` with the message "<node>: <what>".
void assertAtRunTime(mlir::OpBuilder &b, mlir::Operation *op, mlir::Value flag,
                     llvm::StringRef what);

/// `scf.for %i = lo to hi` carrying `init`; `body` returns the next values.
mlir::ValueRange
forLoop(mlir::OpBuilder &b, mlir::Location l, mlir::Value lo, mlir::Value hi,
        mlir::ValueRange init,
        llvm::function_ref<llvm::SmallVector<mlir::Value>(
            mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::ValueRange)>
            body);

/// The coordinates in a row-major tensor of `shape` of flat index `flat`.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b, mlir::Location l,
                                           mlir::Value flat,
                                           llvm::ArrayRef<int64_t> shape);

/// Integer element `v` as an index, negative values wrapped by `dim` (ONNX's
/// -n..n-1 indexing).
mlir::Value wrapIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                      int64_t dim);

/// Clamps index `i` into [0, dim - 1], so a bad index never reads or writes
/// out of bounds.
mlir::Value clampIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value i,
                       int64_t dim);

/// Index-typed arithmetic helpers for bodies.
mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// The shape with reduced `axes` removed or kept as 1.
llvm::SmallVector<int64_t> reducedShape(llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> axes,
                                        bool keepDims);

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

#endif // INFER_PASSES_LOWERING_LOWERINGUTILS_H
