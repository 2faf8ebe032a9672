//===- TensorBuilders.h - building tensors and linalg ops -------*- C++ -*-===//
//
// Empty and filled tensors (their dynamic dims sized from operands),
// broadcasting maps, and the builders most patterns are written with:
// elementwise generics, indexed generics, reductions, softmax, matmul,
// reshapes, casts and quantization helpers.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSORBUILDERS_H
#define INFER_PASSES_LOWERING_TENSORBUILDERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace infer::lowering {

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
/// inputs, and a dynamic input dim of 1 broadcasts at run time
/// (RuntimeBroadcast.h); with `checked` (the op being lowered, when
/// run-time checks are on) a run whose input dims neither match nor
/// broadcast fails a check naming it.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, ScalarBody body,
                             mlir::Operation *checked = nullptr);

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

/// For a reshape that only inserts or removes unit dims: the input dim each
/// result dim comes from (-1 for unit dims); std::nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>>
reshapeDimSources(mlir::RankedTensorType from, mlir::RankedTensorType to);

/// Reshapes `value` to `type` (same number of elements; at most one dynamic
/// dim, sized from the element count, or only unit dims inserted or removed
/// (see reshapeDimSources)).
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::RankedTensorType type);

/// The tensor type whose dims are `sizes`: static where a size is a
/// constant, dynamic where it is a run-time value.
mlir::RankedTensorType typeOfSizes(llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                   mlir::Type element);

/// Reshapes `value` (of the same element count) to `sizes`.
mlir::Value reshapeToSizes(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value,
                           llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `value` cast to `type`, the declared result type, which may know more
/// or fewer sizes than the lowering computed.
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   mlir::RankedTensorType type);

/// In a body: `data`'s element at `at`, or 0 of `element` when `empty` (an
/// i1: the tensor has an empty dim, so `at`, clamped, would read out of
/// bounds).
mlir::Value extractOrZero(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value empty, mlir::Value data,
                          mlir::ValueRange at, mlir::Type element);

/// The sizes of every dim of `value`.
llvm::SmallVector<mlir::OpFoldResult>
sizesOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

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

/// A function that folds one element into an accumulator.
using Combiner = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::Value)>;

/// Several reductions of `input` over `axes` in one pass (one generic with
/// an output per combiner, each starting from `init`): DynamicQuantizeLinear
/// reads its input once for both its minimum and its maximum.
llvm::SmallVector<mlir::Value>
buildReductions(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                llvm::ArrayRef<int64_t> axes, bool keepDims, mlir::Value init,
                llvm::ArrayRef<Combiner> combiners);

/// softmax (or log-softmax) of float tensor `x` along `axis`, computed as
/// exp(x - max) / sum(exp(x - max)).
mlir::Value buildSoftmax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         int64_t axis, bool log);

/// out[batch..., m, n] = sum_k a[..., m, k] * b[..., k, n] (a, b of rank
/// >= 2, batch dims broadcast, optionally transposed), accumulated in the
/// result's element type.
/// A contraction's step: acc + x * y (see ByteDot.h for the int8 one).
using MultiplyAdd = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value acc, mlir::Value x,
    mlir::Value y)>;

/// `multiplyAdd` replaces the element type's add and mul when given (the
/// operands are then not cast).
mlir::Value buildMatmul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                        mlir::Value rhs, mlir::RankedTensorType resultType,
                        bool transA = false, bool transB = false,
                        MultiplyAdd multiplyAdd = nullptr);

/// Reshapes a 1-d per-axis quantization parameter to broadcast along `axis`
/// of a rank `rank` tensor; scalars and 1-element tensors become rank 0.
mlir::Value perAxis(mlir::OpBuilder &b, mlir::Location loc, mlir::Value param,
                    int64_t axis, int64_t rank);

/// (x - zero_point) widened to i32 (`zp` may be null); a 1-d zero point
/// applies along `axis`.
mlir::Value widenMinusZp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         bool xUnsigned, mlir::Value zp, bool zpUnsigned,
                         int64_t axis);

/// Float `v` (already rounded, zero point added) clamped to the range of
/// the integer type `to` and converted to it.
mlir::Value saturate(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                     mlir::Type to, bool isUnsigned);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSORBUILDERS_H
