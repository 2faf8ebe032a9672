//===- Passes.td - graph-level passes -------------------------------------===//

#ifndef INFER_PASSES_GRAPH_PASSES_TD
#define INFER_PASSES_GRAPH_PASSES_TD

include "mlir/Pass/PassBase.td"

def PropagateShapesPass : Pass<"infer-graph-propagate-shapes", "::mlir::func::FuncOp"> {
  let summary = "Refines result types with every dimension that can be known";
  let description = [{
    Visits ops in order and joins each result type with what the op's
    `ShapeInferenceOpInterface` infers from its operands (and constant
    operands such as shape tensors and axes). Known dimensions are never
    lost; two known dimensions that differ are an error naming the op. The
    function's result types follow the values it returns.
  }];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def FoldConstantsPass : Pass<"infer-graph-fold-constants", "::mlir::func::FuncOp"> {
  let summary = "Folds ops with constant operands, shape subgraphs first";
  let description = [{
    Folds every op whose operands are constants, within a size limit so
    weights are never copied: Shape and Size of statically shaped tensors,
    and the Gather/Slice/Concat/Unsqueeze/Cast/arithmetic chains that
    compute Reshape targets from them. Alternates with shape propagation
    until nothing changes, so a Reshape whose target becomes constant gets
    a static result type.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int", "8",
           "Rounds of folding and shape propagation before giving up">
  ];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def SpecializeShapesPass : Pass<"infer-graph-specialize-shapes", "::mlir::func::FuncOp"> {
  let summary = "Fixes dynamic input dimensions to given sizes";
  let description = [{
    `shape=name=1x3x224x224` fixes the shape of the input named `name`
    (its `graph.name` argument attribute); `batch=N` sets the first
    dimension of every input whose first dimension is dynamic. A size that
    contradicts a static dimension, an unknown input name or a wrong rank is
    an error. `profile=name=MIN:OPT:MAX` (as infer-compile's
    --shape-profile) fixes each dynamic dimension whose MIN and MAX agree
    (a PP-OCR recognizer's height of 48) and leaves the rest dynamic;
    malformed profiles are left to infer-prepare-entry to report. Result
    types are re-propagated afterwards.
  }];
  let options = [
    ListOption<"shapes", "shape", "std::string",
               "Input shapes as name=D0xD1x... (repeatable)">,
    ListOption<"profiles", "profile", "std::string",
               "Shape profiles as name=MIN:OPT:MAX; dims with MIN == MAX "
               "become static (repeatable)">,
    Option<"batch", "batch", "int64_t", "0",
           "Size for every dynamic leading (batch) dimension; 0 keeps them">
  ];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def FoldQdqPass : Pass<"infer-graph-fold-qdq", "::mlir::func::FuncOp"> {
  let summary = "Folds DequantizeLinear -> Conv/MatMul -> QuantizeLinear into QLinearConv/QLinearMatMul";
  let description = [{
    A convolution whose input and weights come from DequantizeLinear and
    whose only user is a QuantizeLinear (the QDQ form quantizers write)
    becomes one `graph.q_linear_conv` over the quantized tensors, which
    the int8 lowering computes in integers. Taken when the input and the
    output are quantized per tensor, the weights are an 8-bit constant
    quantized per tensor or per output channel (axis 0), and the bias, if
    any, is an i32 constant dequantized with zero points 0 and the scale
    x_scale * w_scale. The same form around a MatMul whose B is a
    constant 2-d 8-bit matrix quantized per tensor or per column (axis 1)
    becomes a `graph.q_linear_mat_mul`; with a float result (no
    QuantizeLinear after it) a `graph.mat_mul_integer` and a scale. Anything
    else is left as it is (it still runs, in float). A QDQ MaxPool with equal scales on both sides runs on the 8-bit
    values; constant weights no integer op took are dequantized here; and
    a chain of elementwise ops (Add, Sub, Mul, Div, Clip, Relu, Neg,
    HardSigmoid, HardSwish, with QuantizeLinear/DequantizeLinear pairs
    inside) over one 8-bit tensor, ending in a QuantizeLinear, becomes a
    Gather from its 256 results, computed here as the lowering would.
  }];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def FoldBatchNormPass : Pass<"infer-graph-fold-batch-norm", "::mlir::func::FuncOp"> {
  let summary = "Folds an inference BatchNormalization into the Conv before it";
  let description = [{
    `BatchNormalization(Conv(x, W, B))` with constant weights, bias and
    statistics (and no training outputs) becomes `Conv(x, W * s, (B - mean)
    * s + beta)` with `s = scale / sqrt(var + epsilon)` per output channel,
    computed in f32. The int8 quantizer runs it before calibrating, so the
    integer convolution carries the normalization.
  }];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def QuantizeConvsPass : Pass<"infer-graph-quantize", "::mlir::func::FuncOp"> {
  let summary = "Writes QDQ around the convolutions calibration marked";
  let description = [{
    Each `graph.conv` with an `infer.quantize = {id = N, input = array<f64:
    min, max>, output = array<f64: min, max>}` mark (set by
    `infer-compile --quantize=int8` from its calibration run) gets
    QuantizeLinear/DequantizeLinear pairs in the form quantizers write: u8
    activations per tensor over the measured range widened to contain 0,
    s8 weights symmetric per output channel (scale max|w| / 127), an i32
    bias at scale x_scale * w_scale. A tensor several marked convolutions
    read is quantized once; a Relu or Clip(0, max) that is the Conv's only
    user is dropped when the output's zero point is 0 (u8 saturation does
    the same). A MatMul (B a constant 2-d matrix, quantized per column)
    keeps a float output. The output's DequantizeLinear (a MatMul itself)
    gets `infer.quantized_output = N`. `infer-graph-fold-qdq` then turns
    each Conv into a QLinearConv, each MatMul into a MatMulInteger and a
    scale. A marked
    convolution that cannot be quantized (grouped, dynamic, weights computed
    at run time) stays float, with a warning.
  }];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def MarkBf16Pass : Pass<"infer-graph-bf16", "::mlir::func::FuncOp"> {
  let summary = "Marks the matmuls and convolutions to compute in bfloat16";
  let description = [{
    Sets `infer.precision = "bf16"` on each `graph.conv` (one group), each
    `graph.mat_mul` whose B is a 2-d constant and each `graph.gemm` (A not
    transposed) whose B is constant, all of f32 and outside subgraphs,
    unless its ONNX node is named in `exclude`. The lowering then computes
    the marked op over bfloat16 pairs (passes/lowering/PairDot.h): inputs
    rounded to bf16 at run time, weights at compile time, products summed
    in f32 (`infer-compile --precision=bf16`). A name in `exclude` that
    names no such op is an error.
  }];
  let options = [
    ListOption<"exclude", "exclude", "std::string",
               "ONNX node names of layers to keep in f32">
  ];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

def BindInputsPass : Pass<"infer-graph-bind-inputs", "::mlir::func::FuncOp"> {
  let summary = "Replaces inputs by compile-time values";
  let description = [{
    `bind=name=v0,v1,...` makes the input named `name` a constant and
    removes it from the function's arguments: a model that branches on a
    configuration input (a sample rate, a mode flag) is specialised to one
    value, and an `If` on it folds to the branch taken. The values are
    parsed as the input's element type; their count must match its shape
    (a scalar takes one value; a 1-d input of unknown length takes the
    count given). An unknown name, a value that does not parse or fit, or
    a count that does not match is an error.
  }];
  let options = [
    ListOption<"bindings", "bind", "std::string",
               "Inputs fixed to values as name=v0,v1,... (repeatable)">
  ];
  let dependentDialects = ["::infer::graph::GraphDialect"];
}

#endif // INFER_PASSES_GRAPH_PASSES_TD
