//===- TensorOps.td - data movement and shape graph ops -------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_TENSOROPS_TD
#define INFER_DIALECTS_GRAPH_IR_TENSOROPS_TD

include "dialects/graph/IR/Base.td"

def Graph_NoneOp : Graph_Op<"none", "", [Pure]> {
  let summary = "the value of a missing optional input or output";
  let description = [{
    ONNX marks an omitted optional input with an empty name; the importer
    passes the result of `graph.none` instead, so every op keeps its
    operand positions.

    Example:
    ```mlir
    %none = graph.none
    %y = graph.conv %x, %w, %none : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32>
    ```
  }];
  let results = (outs NoneType:$result);
  let assemblyFormat = "attr-dict";
}

def Graph_ConstantOp : Graph_Op<"constant", "Constant",
    [Pure, ConstantLike, Graph_ShapeInferenceOpInterface,
     AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (ONNX Constant and initializers)";
  let description = [{
    Initializers and `Constant` nodes. Large tensors are `dense_resource`
    blobs, so the IR never prints weights in full; small ones are `dense`.

    Example:
    ```mlir
    %shape = graph.constant dense<[1, -1]> : tensor<2xi64>
    %w = graph.constant dense_resource<conv1.weight> : tensor<16x3x3x3xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
    build($_builder, $_state, value.getType(), value);
  }]>];
}

def Graph_ConstantOfShapeOp : Graph_OnnxOp<"constant_of_shape",
    "ConstantOfShape", "a tensor of the given shape filled with one value",
    (ins AnyTensor:$input, OptionalAttr<ElementsAttr>:$value),
    (outs AnyTensor:$output), 1>;

def Graph_ShapeOp : Graph_OnnxOp<"shape", "Shape",
    "the shape of a tensor as a 1-d i64 tensor",
    (ins AnyTensor:$data, OptionalAttr<Graph_I64Attr>:$end, Graph_I64<0>:$start),
    (outs AnyTensor:$shape), 1> {
  let hasFolder = 1;
}

def Graph_SizeOp : Graph_OnnxOp<"size", "Size",
    "the number of elements as an i64 scalar",
    (ins AnyTensor:$data), (outs AnyTensor:$size), 1> {
  let hasFolder = 1;
}

def Graph_IdentityOp : Graph_Op<"identity", "Identity",
                                [Pure, Graph_SameShapeInference]> {
  let summary = "the input, unchanged (ONNX Identity)";
  let description = [{
    Example:
    ```mlir
    %y = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_AnyValue:$input);
  let results = (outs Graph_AnyValue:$output);
  let hasFolder = 1;
}

def Graph_ReshapeOp : Graph_OnnxOp<"reshape", "Reshape",
    "a new shape for the same elements",
    (ins AnyTensor:$data, AnyTensor:$shape, Graph_I64<0>:$allowzero),
    (outs AnyTensor:$reshaped), 1> {
  let description = [{
    `shape` may hold one -1 (inferred) and 0 (copy the input dimension,
    unless `allowzero` is 1).

    Example:
    ```mlir
    %y = graph.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_FlattenOp : Graph_OnnxOp<"flatten", "Flatten",
    "flattens to 2-d at an axis",
    (ins AnyTensor:$input, Graph_I64<1>:$axis), (outs AnyTensor:$output), 1>;

def Graph_SqueezeOp : Graph_OnnxOp<"squeeze", "Squeeze",
    "removes size-1 dimensions",
    (ins AnyTensor:$data, Graph_TensorOrNone:$axes),
    (outs AnyTensor:$squeezed), 1> {
  let hasFolder = 1;
}

def Graph_UnsqueezeOp : Graph_OnnxOp<"unsqueeze", "Unsqueeze",
    "inserts size-1 dimensions",
    (ins AnyTensor:$data, AnyTensor:$axes), (outs AnyTensor:$expanded), 1> {
  let hasFolder = 1;
}

def Graph_TransposeOp : Graph_OnnxOp<"transpose", "Transpose",
    "permutes dimensions (reverses them when `perm` is absent)",
    (ins AnyTensor:$data, Graph_OptI64s:$perm), (outs AnyTensor:$transposed), 1> {
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_ConcatOp : Graph_OnnxOp<"concat", "Concat",
    "concatenation along an axis",
    (ins Variadic<AnyTensor>:$inputs, Graph_I64Attr:$axis),
    (outs AnyTensor:$concat_result), 1> {
  let description = [{
    Example:
    ```mlir
    %c = graph.concat %a, %b {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
    ```
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_SplitOp : Graph_OnnxOp<"split", "Split",
    "splits along an axis",
    (ins AnyTensor:$input, Graph_TensorOrNone:$split, Graph_I64<0>:$axis,
         OptionalAttr<Graph_I64Attr>:$num_outputs),
    (outs Variadic<AnyTensor>:$outputs), 1> {
  let hasVerifier = 1;
}

def Graph_SliceOp : Graph_OnnxOp<"slice", "Slice",
    "strided slice along some axes",
    (ins AnyTensor:$data, AnyTensor:$starts, AnyTensor:$ends,
         Graph_TensorOrNone:$axes, Graph_TensorOrNone:$steps),
    (outs AnyTensor:$output), 1> {
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Graph_GatherOp : Graph_OnnxOp<"gather", "Gather",
    "gathers slices along an axis by index",
    (ins AnyTensor:$data, AnyTensor:$indices, Graph_I64<0>:$axis),
    (outs AnyTensor:$output), 1> {
  let hasFolder = 1;
}

def Graph_GatherElementsOp : Graph_OnnxOp<"gather_elements", "GatherElements",
    "gathers single elements along an axis",
    (ins AnyTensor:$data, AnyTensor:$indices, Graph_I64<0>:$axis),
    (outs AnyTensor:$output), 1> {
  let hasVerifier = 1;
}

def Graph_GatherNDOp : Graph_OnnxOp<"gather_nd", "GatherND",
    "gathers slices by N-d index tuples",
    (ins AnyTensor:$data, AnyTensor:$indices, Graph_I64<0>:$batch_dims),
    (outs AnyTensor:$output)> {
  let hasVerifier = 1;
}

def Graph_ScatterReduction : Graph_StrEnum<["none", "add", "mul", "max", "min"],
                                           "none">;

def Graph_ScatterElementsOp : Graph_OnnxOp<"scatter_elements",
    "ScatterElements", "writes updates at indices along an axis",
    (ins AnyTensor:$data, AnyTensor:$indices, AnyTensor:$updates,
         Graph_I64<0>:$axis, Graph_ScatterReduction:$reduction),
    (outs AnyTensor:$output), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_ScatterNDOp : Graph_OnnxOp<"scatter_nd", "ScatterND",
    "writes updates at N-d index tuples",
    (ins AnyTensor:$data, AnyTensor:$indices, AnyTensor:$updates,
         Graph_ScatterReduction:$reduction),
    (outs AnyTensor:$output), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_ExpandOp : Graph_OnnxOp<"expand", "Expand",
    "broadcasts to a shape",
    (ins AnyTensor:$input, AnyTensor:$shape), (outs AnyTensor:$output), 1>;

def Graph_TileOp : Graph_OnnxOp<"tile", "Tile", "repeats a tensor",
    (ins AnyTensor:$input, AnyTensor:$repeats), (outs AnyTensor:$output), 1>;

def Graph_PadOp : Graph_OnnxOp<"pad", "Pad", "pads a tensor",
    (ins AnyTensor:$data, AnyTensor:$pads, Graph_TensorOrNone:$constant_value,
         Graph_TensorOrNone:$axes,
         Graph_StrEnum<["constant", "reflect", "edge", "wrap"], "constant">:$mode),
    (outs AnyTensor:$output), 1>;

def Graph_RangeOp : Graph_OnnxOp<"range", "Range",
    "start, start + delta, ... below limit",
    (ins AnyTensor:$start, AnyTensor:$limit, AnyTensor:$delta),
    (outs AnyTensor:$output), 1>;

def Graph_ResizeOp : Graph_OnnxOp<"resize", "Resize",
    "resizes by interpolation",
    (ins AnyTensor:$X, Graph_TensorOrNone:$roi, Graph_TensorOrNone:$scales,
         Graph_TensorOrNone:$sizes, Graph_I64<0>:$antialias,
         Graph_OptI64s:$axes,
         Graph_StrEnum<["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                        "align_corners", "asymmetric", "tf_crop_and_resize",
                        "tf_half_pixel_for_nn"], "half_pixel">:$coordinate_transformation_mode,
         Graph_F32<"-0.75">:$cubic_coeff_a, Graph_I64<0>:$exclude_outside,
         Graph_F32<"0.0">:$extrapolation_value,
         Graph_StrEnum<["stretch", "not_larger", "not_smaller"], "stretch">:$keep_aspect_ratio_policy,
         Graph_StrEnum<["nearest", "linear", "cubic"], "nearest">:$mode,
         Graph_StrEnum<["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"],
                       "round_prefer_floor">:$nearest_mode),
    (outs AnyTensor:$Y), 1> {
  let description = [{
    The opset-19 form: `roi`, `scales`, `sizes` are operands (`none` when
    absent). The importer maps Resize-10 and Upsample onto it with
    `coordinate_transformation_mode = "asymmetric"` and
    `nearest_mode = "floor"`, which is what those opsets compute.
  }];
}

def Graph_TriluOp : Graph_OnnxOp<"trilu", "Trilu",
    "upper or lower triangle of matrices",
    (ins AnyTensor:$input, Graph_TensorOrNone:$k, Graph_I64<1>:$upper),
    (outs AnyTensor:$output), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_DepthToSpaceOp : Graph_OnnxOp<"depth_to_space", "DepthToSpace",
    "moves channel blocks into spatial blocks",
    (ins AnyTensor:$input, Graph_I64Attr:$blocksize,
         Graph_StrEnum<["DCR", "CRD"], "DCR">:$mode),
    (outs AnyTensor:$output), 1>;

def Graph_SpaceToDepthOp : Graph_OnnxOp<"space_to_depth", "SpaceToDepth",
    "moves spatial blocks into channels",
    (ins AnyTensor:$input, Graph_I64Attr:$blocksize), (outs AnyTensor:$output), 1>;

def Graph_CenterCropPadOp : Graph_OnnxOp<"center_crop_pad", "CenterCropPad",
    "crops or pads around the center to a shape",
    (ins AnyTensor:$input_data, AnyTensor:$shape, Graph_OptI64s:$axes),
    (outs AnyTensor:$output_data)>;

def Graph_OneHotOp : Graph_OnnxOp<"one_hot", "OneHot", "one-hot encoding",
    (ins AnyTensor:$indices, AnyTensor:$depth, AnyTensor:$values,
         Graph_I64<-1>:$axis),
    (outs AnyTensor:$output)> {
  let hasVerifier = 1;
}

def Graph_NonZeroOp : Graph_OnnxOp<"non_zero", "NonZero",
    "indices of the non-zero elements",
    (ins AnyTensor:$X), (outs AnyTensor:$Y)> {
  let hasVerifier = 1;
}

def Graph_CompressOp : Graph_OnnxOp<"compress", "Compress",
    "selects slices where a condition is true",
    (ins AnyTensor:$input, AnyTensor:$condition, OptionalAttr<Graph_I64Attr>:$axis),
    (outs AnyTensor:$output)> {
  let hasVerifier = 1;
}

def Graph_EyeLikeOp : Graph_OnnxOp<"eye_like", "EyeLike",
    "a 2-d identity-like matrix",
    (ins AnyTensor:$input, OptionalAttr<TypeAttr>:$dtype, Graph_I64<0>:$k),
    (outs AnyTensor:$output), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_ReverseSequenceOp : Graph_OnnxOp<"reverse_sequence",
    "ReverseSequence", "reverses variable-length prefixes",
    (ins AnyTensor:$input, AnyTensor:$sequence_lens, Graph_I64<1>:$batch_axis,
         Graph_I64<0>:$time_axis),
    (outs AnyTensor:$Y), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_UniqueOp : Graph_OnnxOp<"unique", "Unique",
    "unique elements or slices",
    (ins AnyTensor:$X, OptionalAttr<Graph_I64Attr>:$axis, Graph_I64<1>:$sorted),
    (outs AnyTensor:$Y, Graph_TensorOrNone:$indices,
          Graph_TensorOrNone:$inverse_indices, Graph_TensorOrNone:$counts)> {
  let hasVerifier = 1;
}

def Graph_CumSumOp : Graph_OnnxOp<"cum_sum", "CumSum",
    "cumulative sum along an axis",
    (ins AnyTensor:$x, AnyTensor:$axis, Graph_I64<0>:$exclusive,
         Graph_I64<0>:$reverse),
    (outs AnyTensor:$y), 0, [Pure, Graph_SameShape]>;

def Graph_TopKOp : Graph_OnnxOp<"top_k", "TopK",
    "the K largest (or smallest) elements along an axis",
    (ins AnyTensor:$X, AnyTensor:$K, Graph_I64<-1>:$axis,
         Graph_I64<1>:$largest, Graph_I64<1>:$sorted),
    (outs AnyTensor:$Values, AnyTensor:$Indices), 1>;

def Graph_NonMaxSuppressionOp : Graph_OnnxOp<"non_max_suppression",
    "NonMaxSuppression", "box selection by non-maximum suppression",
    (ins AnyTensor:$boxes, AnyTensor:$scores,
         Graph_TensorOrNone:$max_output_boxes_per_class,
         Graph_TensorOrNone:$iou_threshold, Graph_TensorOrNone:$score_threshold,
         Graph_I64<0>:$center_point_box),
    (outs AnyTensor:$selected_indices)> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Signal processing
//===----------------------------------------------------------------------===//

class Graph_WindowOp<string mnemonic, string onnxName, string what>
    : Graph_OnnxOp<mnemonic, onnxName, what,
        (ins AnyTensor:$size, OptionalAttr<TypeAttr>:$output_datatype,
             Graph_I64<1>:$periodic),
        (outs AnyTensor:$output)>;

def Graph_BlackmanWindowOp : Graph_WindowOp<"blackman_window", "BlackmanWindow",
                                            "a Blackman window">;
def Graph_HammingWindowOp : Graph_WindowOp<"hamming_window", "HammingWindow",
                                           "a Hamming window">;
def Graph_HannWindowOp : Graph_WindowOp<"hann_window", "HannWindow",
                                        "a Hann window">;

def Graph_MelWeightMatrixOp : Graph_OnnxOp<"mel_weight_matrix",
    "MelWeightMatrix", "a mel filter bank matrix",
    (ins AnyTensor:$num_mel_bins, AnyTensor:$dft_length,
         AnyTensor:$sample_rate, AnyTensor:$lower_edge_hertz,
         AnyTensor:$upper_edge_hertz, OptionalAttr<TypeAttr>:$output_datatype),
    (outs AnyTensor:$output)>;

def Graph_DFTOp : Graph_OnnxOp<"dft", "DFT", "discrete Fourier transform",
    (ins AnyTensor:$input, Graph_TensorOrNone:$dft_length,
         Graph_TensorOrNone:$axis, Graph_I64<0>:$inverse,
         Graph_I64<0>:$onesided),
    (outs AnyTensor:$output)>;

def Graph_STFTOp : Graph_OnnxOp<"stft", "STFT", "short-time Fourier transform",
    (ins AnyTensor:$signal, AnyTensor:$frame_step, Graph_TensorOrNone:$window,
         Graph_TensorOrNone:$frame_length, Graph_I64<1>:$onesided),
    (outs AnyTensor:$output)> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

def Graph_StringNormalizerOp : Graph_OnnxOp<"string_normalizer",
    "StringNormalizer", "string case folding and stop-word removal",
    (ins AnyTensor:$X,
         Graph_StrEnum<["NONE", "LOWER", "UPPER"], "NONE">:$case_change_action,
         Graph_I64<0>:$is_case_sensitive, OptionalAttr<StrAttr>:$locale,
         OptionalAttr<StrArrayAttr>:$stopwords),
    (outs AnyTensor:$Y)>;

def Graph_TfIdfVectorizerOp : Graph_OnnxOp<"tf_idf_vectorizer",
    "TfIdfVectorizer", "n-gram counting with TF/IDF weighting",
    (ins AnyTensor:$X, Graph_I64Attr:$max_gram_length, Graph_I64Attr:$max_skip_count,
         Graph_I64Attr:$min_gram_length, Graph_StrOneOf<["TF", "IDF", "TFIDF"]>:$mode,
         DenseI64ArrayAttr:$ngram_counts, DenseI64ArrayAttr:$ngram_indexes,
         Graph_OptI64s:$pool_int64s, OptionalAttr<StrArrayAttr>:$pool_strings,
         Graph_OptF32s:$weights),
    (outs AnyTensor:$Y)> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Random numbers (values depend on the seed, not on ONNX)
//===----------------------------------------------------------------------===//

def Graph_RandomUniformOp : Graph_OnnxOp<"random_uniform", "RandomUniform",
    "uniform random numbers",
    (ins TypeAttr:$dtype, Graph_F32<"1.0">:$high, Graph_F32<"0.0">:$low,
         OptionalAttr<F32Attr>:$seed, DenseI64ArrayAttr:$shape),
    (outs AnyTensor:$output), 0, []>;
def Graph_RandomNormalOp : Graph_OnnxOp<"random_normal", "RandomNormal",
    "normal random numbers",
    (ins TypeAttr:$dtype, Graph_F32<"0.0">:$mean, Graph_F32<"1.0">:$scale,
         OptionalAttr<F32Attr>:$seed, DenseI64ArrayAttr:$shape),
    (outs AnyTensor:$output), 0, []>;
def Graph_RandomUniformLikeOp : Graph_OnnxOp<"random_uniform_like",
    "RandomUniformLike", "uniform random numbers shaped like the input",
    (ins AnyTensor:$input, OptionalAttr<TypeAttr>:$dtype,
         Graph_F32<"1.0">:$high, Graph_F32<"0.0">:$low,
         OptionalAttr<F32Attr>:$seed),
    (outs AnyTensor:$output), 0, [Graph_SameShape]>;
def Graph_RandomNormalLikeOp : Graph_OnnxOp<"random_normal_like",
    "RandomNormalLike", "normal random numbers shaped like the input",
    (ins AnyTensor:$input, OptionalAttr<TypeAttr>:$dtype,
         Graph_F32<"0.0">:$mean, Graph_F32<"1.0">:$scale,
         OptionalAttr<F32Attr>:$seed),
    (outs AnyTensor:$output), 0, [Graph_SameShape]>;
def Graph_BernoulliOp : Graph_OnnxOp<"bernoulli", "Bernoulli",
    "Bernoulli draws with the input's probabilities",
    (ins AnyTensor:$input, OptionalAttr<TypeAttr>:$dtype,
         OptionalAttr<F32Attr>:$seed),
    (outs AnyTensor:$output), 0, [Graph_SameShape]>;
def Graph_MultinomialOp : Graph_OnnxOp<"multinomial", "Multinomial",
    "samples from multinomial distributions",
    (ins AnyTensor:$input, TypeAttr:$dtype, Graph_I64<1>:$sample_size,
         OptionalAttr<F32Attr>:$seed),
    (outs AnyTensor:$output), 0, []>;

#endif // INFER_DIALECTS_GRAPH_IR_TENSOROPS_TD
