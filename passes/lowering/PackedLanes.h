//===- PackedLanes.h - tensors of i32 values packing narrow lanes -*- C++
//-*-===//
//
// The int8 (ByteDot.h) and bf16 (PairDot.h) contractions read i32 values
// that each pack several consecutive elements of one dim: four 8-bit lanes
// or two bfloat16 lanes, lane j in bits (32 / lanes) * j upward. These
// build such tensors: at run time from an activation, and at compile time
// from constant words.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_PACKEDLANES_H
#define INFER_PASSES_LOWERING_PACKEDLANES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace infer::lowering {

/// An i32 constant tensor of `type` holding `values` (a resource blob when
/// large).
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        llvm::ArrayRef<int32_t> values);

/// The bits of one element as a lane: zero-extended to i32, below 2^(32 /
/// lanes).
using LaneBits = llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                                mlir::Location, mlir::Value)>;

/// `x` with each `lanes` consecutive elements along `dim` packed into one
/// i32 (lane j = element lanes * i + j), the dim padded at its end with
/// `padding` to a multiple of `lanes`.
mlir::Value packLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      int64_t dim, mlir::Value padding, int64_t lanes,
                      LaneBits laneBits);

/// packLanes of four 8-bit lanes, zero-extended (ByteDot.h): `padding` is
/// the i8 zero point.
mlir::Value packByteLanes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                          int64_t dim, mlir::Value padding);

/// packLanes of two bfloat16 lanes rounded from the f32 `x` (PairDot.h),
/// padded with zeros.
mlir::Value packBf16Pairs(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                          int64_t dim);

/// The constant f32 `values` (of `shape`) packed as packBf16Pairs packs,
/// along `dim`: at compile time.
mlir::Value bf16PairsConstant(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<float> values,
                              llvm::ArrayRef<int64_t> shape, int64_t dim);

/// acc + the pair dot of `x` and `y` (PairDot.h): a MultiplyAdd.
mlir::Value pairDotStep(mlir::OpBuilder &b, mlir::Location loc, mlir::Value acc,
                        mlir::Value x, mlir::Value y);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_PACKEDLANES_H
