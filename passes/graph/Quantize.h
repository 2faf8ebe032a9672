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

/// The mark calibration sets on a Conv or MatMul to quantize: a dictionary
/// with
/// `id` (i64, the layer's number in the report), `input` and `output`
/// (array<f64: min, max>, the ranges measured for the layer's input and
/// for quantizedTail(layer)).
inline constexpr llvm::StringLiteral kQuantizeMark = "infer.quantize";
/// Set by infer-graph-quantize on the op whose result is each quantized
/// layer's output (a Conv's output DequantizeLinear, a MatMul itself): the
/// layer's `id`.
inline constexpr llvm::StringLiteral kQuantizedOutputMark =
    "infer.quantized_output";

/// Whether `op` is of a kind the quantizer takes: Conv or MatMul.
bool isQuantizableKind(mlir::Operation *op);

/// Why the Conv or MatMul `op` stays float ("" when it can be quantized):
/// f32 with static shapes and constant weights (and bias), outside any
/// subgraph; a Conv 2-D with one group (grouped and depthwise convolutions
/// have no int8 kernel; they would be slower in integers than in f32), a
/// MatMul's B 2-d.
std::string whyNotQuantizable(mlir::Operation *op);

/// The value the layer's quantized output stands for: the result of a
/// Relu, or a Clip with constant min 0, that is the only user of its
/// result (quantizing to u8 with zero point 0 saturates exactly as they
/// do, so they are dropped); else its result.
mlir::Value quantizedTail(mlir::Operation *op);

} // namespace infer::graph

#endif // INFER_PASSES_GRAPH_QUANTIZE_H
