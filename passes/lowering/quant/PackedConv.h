//===- PackedConv.h - QLinearConv over packed 8-bit lanes -------*- C++ -*-===//
//
// The int8 lowerings of QLinearConv and QLinearMatMul the CPU kernels compute
// with byte-dot instructions (see PackedConv.cpp, PackedMatMul.cpp and
// ByteDot.h).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H
#define INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H

#include "dialects/graph/IR/GraphOps.h"
#include "passes/lowering/PackedLanes.h"

#include "mlir/Transforms/DialectConversion.h"

namespace infer::lowering {

/// Lowers `op` over i32 values packing four channels when its input is u8,
/// its weights constant s8 with zero points 0, one group, and its scales,
/// zero points and bias constant; fails (changing nothing) otherwise.
mlir::LogicalResult
lowerPackedQLinearConv(graph::QLinearConvOp op,
                       graph::QLinearConvOp::Adaptor adaptor,
                       mlir::ConversionPatternRewriter &rewriter);

/// saturate(round((acc + corr) * mult) + zy) to `yType`, with the
/// constants corr and mult of shape `paramShape` broadcast along the
/// output's channels or columns: the packed lowerings' requantization, in
/// the generic lowering's float steps.
mlir::Value requantizePacked(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType yType, bool yUnsigned,
                             mlir::Value acc,
                             llvm::ArrayRef<int64_t> paramShape,
                             llvm::ArrayRef<int32_t> corr,
                             llvm::ArrayRef<float> mult, int64_t zy);

/// Lowers a QLinearMatMul with u8 `a` and a constant 2-d s8 `b` (zero
/// points 0, per-tensor or per-column scales) to a matmul over i32 values
/// packing four of K, with the same requantization; fails otherwise.
mlir::LogicalResult
lowerPackedQLinearMatMul(graph::QLinearMatMulOp op,
                         graph::QLinearMatMulOp::Adaptor adaptor,
                         mlir::ConversionPatternRewriter &rewriter);

/// Lowers a MatMulInteger with u8 A, a constant 2-d s8 B with zero points
/// 0 and any A zero point (a constant, none, or DynamicQuantizeLinear's at
/// run time) the same way, to the i32 product.
mlir::LogicalResult
lowerPackedMatMulInteger(graph::MatMulIntegerOp op,
                         graph::MatMulIntegerOp::Adaptor adaptor,
                         mlir::ConversionPatternRewriter &rewriter);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H
