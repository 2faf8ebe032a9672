//===- ControlFlowOps.td - subgraphs and sequences ------------------------===//
//
// ONNX ops with subgraphs become ops with regions; a subgraph may use values
// of the enclosing graph directly. Sequence and optional ops work on
// `!graph.seq` and `!graph.opt`.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_CONTROLFLOWOPS_TD
#define INFER_DIALECTS_GRAPH_IR_CONTROLFLOWOPS_TD

include "dialects/graph/IR/Base.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Graph_YieldOp : Graph_Op<"yield", "", [Pure, Terminator, ReturnLike,
    ParentOneOf<["IfOp", "LoopOp", "ScanOp", "SequenceMapOp"]>]> {
  let summary = "returns the outputs of a subgraph";
  let description = [{
    Example:
    ```mlir
    graph.yield %a, %b : tensor<2xf32>, tensor<i1>
    ```
  }];
  let arguments = (ins Variadic<Graph_AnyValue>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Graph_IfOp : Graph_Op<"if", "If", [RecursiveMemoryEffects,
                                       NoRegionArguments]> {
  let summary = "runs one of two subgraphs (ONNX If)";
  let description = [{
    Example:
    ```mlir
    %r = graph.if %c : (tensor<i1>) -> tensor<2xf32> then {
      graph.yield %a : tensor<2xf32>
    } else {
      graph.yield %b : tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins AnyTensor:$cond);
  let results = (outs Variadic<Graph_AnyValue>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let assemblyFormat = [{
    $cond attr-dict `:` functional-type(operands, results)
    `then` $then_branch `else` $else_branch
  }];
  let hasVerifier = 1;
  // A constant condition (after --bind or folding) inlines its branch.
  let hasCanonicalizeMethod = 1;
}

def Graph_LoopOp : Graph_Op<"loop", "Loop", [RecursiveMemoryEffects]> {
  let summary = "a generic loop over a subgraph (ONNX Loop)";
  let description = [{
    Operands: the trip count `M` and the condition `cond` (either may be
    `none`), then the loop-carried values. The body's arguments are the
    iteration number, the condition and the loop-carried values; it yields
    the next condition, the loop-carried values and the scan outputs.

    Example:
    ```mlir
    %r = graph.loop %m, %c, %x : (tensor<i64>, tensor<i1>, tensor<f32>) -> tensor<f32> {
    ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<f32>):
      graph.yield %cond, %v : tensor<i1>, tensor<f32>
    }
    ```
  }];
  let arguments = (ins Graph_TensorOrNone:$M, Graph_TensorOrNone:$cond,
                   Variadic<Graph_AnyValue>:$v_initial);
  let results = (outs Variadic<Graph_AnyValue>:$v_final_and_scan_outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results) $body";
  let hasVerifier = 1;
}

def Graph_ScanOp : Graph_Op<"scan", "Scan", [RecursiveMemoryEffects]> {
  let summary = "iterates a subgraph over tensor slices (ONNX Scan)";
  let description = [{
    Operands are the initial states followed by the `num_scan_inputs` scan
    inputs. The body takes the states and one slice of each scan input and
    yields the next states and one slice of each scan output.
  }];
  let arguments = (ins Variadic<AnyTensor>:$initial_state_and_scan_inputs,
                   Graph_I64Attr:$num_scan_inputs, Graph_OptI64s:$scan_input_axes,
                   Graph_OptI64s:$scan_input_directions,
                   Graph_OptI64s:$scan_output_axes,
                   Graph_OptI64s:$scan_output_directions);
  let results = (outs Variadic<AnyTensor>:$final_state_and_scan_outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results) $body";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sequences
//===----------------------------------------------------------------------===//

def Graph_SequenceConstructOp : Graph_OnnxOp<"sequence_construct",
    "SequenceConstruct", "a sequence of the given tensors",
    (ins Variadic<AnyTensor>:$inputs), (outs Graph_SequenceType:$output_sequence)>;

def Graph_SequenceEmptyOp : Graph_OnnxOp<"sequence_empty", "SequenceEmpty",
    "an empty sequence",
    (ins OptionalAttr<TypeAttr>:$dtype), (outs Graph_SequenceType:$output)>;

def Graph_SequenceAtOp : Graph_OnnxOp<"sequence_at", "SequenceAt",
    "the tensor at a position",
    (ins Graph_SequenceType:$input_sequence, AnyTensor:$position),
    (outs AnyTensor:$tensor)>;

def Graph_SequenceEraseOp : Graph_OnnxOp<"sequence_erase", "SequenceErase",
    "removes the tensor at a position (the last one by default)",
    (ins Graph_SequenceType:$input_sequence, Graph_TensorOrNone:$position),
    (outs Graph_SequenceType:$output_sequence)>;

def Graph_SequenceInsertOp : Graph_OnnxOp<"sequence_insert", "SequenceInsert",
    "inserts a tensor at a position (at the end by default)",
    (ins Graph_SequenceType:$input_sequence, AnyTensor:$tensor,
         Graph_TensorOrNone:$position),
    (outs Graph_SequenceType:$output_sequence)>;

def Graph_SequenceLengthOp : Graph_OnnxOp<"sequence_length", "SequenceLength",
    "the number of tensors as an i64 scalar",
    (ins Graph_SequenceType:$input_sequence), (outs AnyTensor:$length)>;

def Graph_SequenceMapOp : Graph_Op<"sequence_map", "SequenceMap",
                                   [RecursiveMemoryEffects]> {
  let summary = "applies a subgraph to every member of sequences (ONNX SequenceMap)";
  let description = [{
    The body takes one member of the input sequence (and of every additional
    sequence input, or the whole additional tensor input) and yields one
    member of each output sequence.
  }];
  let arguments = (ins Graph_SequenceType:$input_sequence,
                   Variadic<Graph_AnyValue>:$additional_inputs);
  let results = (outs Variadic<Graph_SequenceType>:$out_sequence);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results) $body";
}

def Graph_ConcatFromSequenceOp : Graph_OnnxOp<"concat_from_sequence",
    "ConcatFromSequence", "concatenates (or stacks) the members of a sequence",
    (ins Graph_SequenceType:$input_sequence, Graph_I64Attr:$axis,
         Graph_I64<0>:$new_axis),
    (outs AnyTensor:$concat_result)>;

def Graph_SplitToSequenceOp : Graph_OnnxOp<"split_to_sequence",
    "SplitToSequence", "splits a tensor into a sequence",
    (ins AnyTensor:$input, Graph_TensorOrNone:$split, Graph_I64<0>:$axis,
         Graph_I64<1>:$keepdims),
    (outs Graph_SequenceType:$output_sequence)>;

//===----------------------------------------------------------------------===//
// Optionals
//===----------------------------------------------------------------------===//

def Graph_OptionalOp : Graph_OnnxOp<"optional", "Optional",
    "wraps a value (or nothing) in an optional",
    (ins Graph_AnyValue:$input, OptionalAttr<TypeAttr>:$type),
    (outs Graph_OptionalType:$output)>;

def Graph_OptionalGetElementOp : Graph_OnnxOp<"optional_get_element",
    "OptionalGetElement", "the value inside an optional",
    (ins Graph_AnyValue:$input), (outs Graph_AnyValue:$output)>;

def Graph_OptionalHasElementOp : Graph_OnnxOp<"optional_has_element",
    "OptionalHasElement", "whether an optional holds a value",
    (ins Graph_AnyValue:$input), (outs AnyTensor:$output)>;

#endif // INFER_DIALECTS_GRAPH_IR_CONTROLFLOWOPS_TD
