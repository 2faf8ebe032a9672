//===- PackedConv.h - QLinearConv over packed 8-bit lanes -------*- C++ -*-===//
//
// The int8 lowering of QLinearConv the CPU kernels compute with byte-dot
// instructions (see PackedConv.cpp and ByteDot.h).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H
#define INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H

#include "dialects/graph/IR/GraphOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace infer::lowering {

/// Lowers `op` over i32 values packing four channels when its input is u8,
/// its weights constant s8 with zero points 0, one group, and its scales,
/// zero points and bias constant; fails (changing nothing) otherwise.
mlir::LogicalResult
lowerPackedQLinearConv(graph::QLinearConvOp op,
                       graph::QLinearConvOp::Adaptor adaptor,
                       mlir::ConversionPatternRewriter &rewriter);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_QUANT_PACKEDCONV_H
