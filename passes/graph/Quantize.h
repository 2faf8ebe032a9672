//===- Quantize.h - what the int8 quantizer takes, and its marks -*- C++
//-*-===//
//
// Shared by the quantizer's calibration (compiler/quantize), which measures
// ranges and marks the convolutions, and infer-graph-quantize, which reads
// the marks and writes QuantizeLinear/DequantizeLinear around them.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_GRAPH_QUANTIZE_H
#define INFER_PASSES_GRAPH_QUANTIZE_H

#include "dialects/graph/IR/GraphOps.h"

#include <string>

namespace infer::graph {

/// The mark calibration sets on a Conv to quantize: a dictionary with
/// `id` (i64, the layer's number in the report), `input` and `output`
/// (array<f64: min, max>, the ranges measured for the Conv's input and for
/// quantizedTail(conv)).
inline constexpr llvm::StringLiteral kQuantizeMark = "infer.quantize";
/// Set by infer-graph-quantize on the DequantizeLinear of each quantized
/// layer's output: the layer's `id`.
inline constexpr llvm::StringLiteral kQuantizedOutputMark =
    "infer.quantized_output";

/// Why `conv` stays float ("" when it can be quantized): it must be a 2-D
/// f32 convolution with static shapes, constant weights and bias, and one
/// group (grouped and depthwise convolutions have no int8 kernel; they
/// would be slower in integers than in f32).
std::string whyNotQuantizable(ConvOp conv);

/// The value the Conv's quantized output stands for: the result of a Relu,
/// or a Clip with constant min 0, that is the only user of the Conv's
/// result (quantizing to u8 with zero point 0 saturates exactly as they
/// do, so they are dropped); else the Conv's result.
mlir::Value quantizedTail(ConvOp conv);

} // namespace infer::graph

#endif // INFER_PASSES_GRAPH_QUANTIZE_H
