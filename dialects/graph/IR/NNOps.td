//===- NNOps.td - neural-network graph ops --------------------------------===//
//
// Convolution, pooling, normalization, matrix products, softmax and the
// recurrent layers.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_NNOPS_TD
#define INFER_DIALECTS_GRAPH_IR_NNOPS_TD

include "dialects/graph/IR/Base.td"

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

def Graph_ConvOp : Graph_OnnxOp<"conv", "Conv", "N-d convolution",
    (ins AnyTensor:$X, AnyTensor:$W, Graph_TensorOrNone:$B,
         Graph_AutoPad:$auto_pad, Graph_OptI64s:$dilations,
         Graph_I64<1>:$group, Graph_OptI64s:$kernel_shape,
         Graph_OptI64s:$pads, Graph_OptI64s:$strides),
    (outs AnyTensor:$Y), 1> {
  let description = [{
    Convolves `X` (N x C x D1 x ... x Dn) with `W` (M x C/group x k1 ... kn)
    and adds the optional bias `B` (M). Absent `dilations`/`strides` mean 1,
    absent `pads` mean 0; `auto_pad` other than NOTSET computes the pads.

    Example:
    ```mlir
    %y = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>}
        : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>)
        -> tensor<1x16x32x32xf32>
    ```
  }];
  let hasVerifier = 1;
}

def Graph_ConvTransposeOp : Graph_OnnxOp<"conv_transpose", "ConvTranspose",
    "N-d transposed convolution",
    (ins AnyTensor:$X, AnyTensor:$W, Graph_TensorOrNone:$B,
         Graph_AutoPad:$auto_pad, Graph_OptI64s:$dilations,
         Graph_I64<1>:$group, Graph_OptI64s:$kernel_shape,
         Graph_OptI64s:$output_padding, Graph_OptI64s:$output_shape,
         Graph_OptI64s:$pads, Graph_OptI64s:$strides),
    (outs AnyTensor:$Y), 1> {
  let hasVerifier = 1;
}

def Graph_AveragePoolOp : Graph_OnnxOp<"average_pool", "AveragePool",
    "average pooling",
    (ins AnyTensor:$X, Graph_AutoPad:$auto_pad, Graph_I64<0>:$ceil_mode,
         Graph_I64<0>:$count_include_pad, Graph_OptI64s:$dilations,
         DenseI64ArrayAttr:$kernel_shape, Graph_OptI64s:$pads,
         Graph_OptI64s:$strides),
    (outs AnyTensor:$Y), 1> {
  let hasVerifier = 1;
}

def Graph_MaxPoolOp : Graph_OnnxOp<"max_pool", "MaxPool", "max pooling",
    (ins AnyTensor:$X, Graph_AutoPad:$auto_pad, Graph_I64<0>:$ceil_mode,
         Graph_OptI64s:$dilations, DenseI64ArrayAttr:$kernel_shape,
         Graph_OptI64s:$pads, Graph_I64<0>:$storage_order,
         Graph_OptI64s:$strides),
    (outs AnyTensor:$Y, Graph_TensorOrNone:$Indices), 1> {
  let hasVerifier = 1;
}

def Graph_LpPoolOp : Graph_OnnxOp<"lp_pool", "LpPool", "Lp-norm pooling",
    (ins AnyTensor:$X, Graph_AutoPad:$auto_pad, Graph_I64<0>:$ceil_mode,
         Graph_OptI64s:$dilations, DenseI64ArrayAttr:$kernel_shape,
         Graph_I64<2>:$p, Graph_OptI64s:$pads, Graph_OptI64s:$strides),
    (outs AnyTensor:$Y), 1> {
  let hasVerifier = 1;
}

def Graph_GlobalAveragePoolOp : Graph_OnnxOp<"global_average_pool",
    "GlobalAveragePool", "average over all spatial dimensions",
    (ins AnyTensor:$X), (outs AnyTensor:$Y), 1>;
def Graph_GlobalMaxPoolOp : Graph_OnnxOp<"global_max_pool", "GlobalMaxPool",
    "maximum over all spatial dimensions",
    (ins AnyTensor:$X), (outs AnyTensor:$Y), 1>;
def Graph_GlobalLpPoolOp : Graph_OnnxOp<"global_lp_pool", "GlobalLpPool",
    "Lp norm over all spatial dimensions",
    (ins AnyTensor:$X, Graph_I64<2>:$p), (outs AnyTensor:$Y), 1>;

def Graph_MaxUnpoolOp : Graph_OnnxOp<"max_unpool", "MaxUnpool",
    "partial inverse of max pooling",
    (ins AnyTensor:$X, AnyTensor:$I, Graph_TensorOrNone:$output_shape,
         DenseI64ArrayAttr:$kernel_shape, Graph_OptI64s:$pads,
         Graph_OptI64s:$strides),
    (outs AnyTensor:$output)>;

def Graph_MaxRoiPoolOp : Graph_OnnxOp<"max_roi_pool", "MaxRoiPool",
    "max pooling over regions of interest",
    (ins AnyTensor:$X, AnyTensor:$rois, DenseI64ArrayAttr:$pooled_shape,
         Graph_F32<"1.0">:$spatial_scale),
    (outs AnyTensor:$Y)>;

def Graph_RoiAlignOp : Graph_OnnxOp<"roi_align", "RoiAlign",
    "bilinear region-of-interest align",
    (ins AnyTensor:$X, AnyTensor:$rois, AnyTensor:$batch_indices,
         Graph_StrEnum<["half_pixel", "output_half_pixel"], "half_pixel">:$coordinate_transformation_mode,
         Graph_StrEnum<["avg", "max"], "avg">:$mode,
         Graph_I64<1>:$output_height, Graph_I64<1>:$output_width,
         Graph_I64<0>:$sampling_ratio, Graph_F32<"1.0">:$spatial_scale),
    (outs AnyTensor:$Y)> {
  let hasVerifier = 1;
}

def Graph_GridSampleOp : Graph_OnnxOp<"grid_sample", "GridSample",
    "sampling at grid locations",
    (ins AnyTensor:$X, AnyTensor:$grid, Graph_I64<0>:$align_corners,
         Graph_StrEnum<["bilinear", "nearest", "bicubic", "linear", "cubic"],
                       "linear">:$mode,
         Graph_StrEnum<["zeros", "border", "reflection"], "zeros">:$padding_mode),
    (outs AnyTensor:$Y)> {
  let hasVerifier = 1;
}

def Graph_Col2ImOp : Graph_OnnxOp<"col2im", "Col2Im",
    "rearranges column blocks into an image",
    (ins AnyTensor:$input, AnyTensor:$image_shape, AnyTensor:$block_shape,
         Graph_OptI64s:$dilations, Graph_OptI64s:$pads,
         Graph_OptI64s:$strides),
    (outs AnyTensor:$output)>;

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def Graph_BatchNormalizationOp : Graph_OnnxOp<"batch_normalization",
    "BatchNormalization", "batch normalization",
    (ins AnyTensor:$X, AnyTensor:$scale, AnyTensor:$B, AnyTensor:$input_mean,
         AnyTensor:$input_var, Graph_F32<"1.0e-5">:$epsilon,
         Graph_F32<"0.9">:$momentum, Graph_I64<0>:$training_mode),
    (outs AnyTensor:$Y, Graph_TensorOrNone:$running_mean,
          Graph_TensorOrNone:$running_var), 1> {
  let description = [{
    Inference form: `Y = scale * (X - mean) / sqrt(var + epsilon) + B` per
    channel (dimension 1). `training_mode = 1` also returns the updated
    running statistics.

    Example:
    ```mlir
    %y, %n0, %n1 = graph.batch_normalization %x, %s, %b, %m, %v
        : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
           tensor<8xf32>) -> (tensor<1x8x4x4xf32>, none, none)
    ```
  }];
}

def Graph_InstanceNormalizationOp : Graph_OnnxOp<"instance_normalization",
    "InstanceNormalization", "instance normalization",
    (ins AnyTensor:$input, AnyTensor:$scale, AnyTensor:$B,
         Graph_F32<"1.0e-5">:$epsilon),
    (outs AnyTensor:$output), 1>;

def Graph_LayerNormalizationOp : Graph_OnnxOp<"layer_normalization",
    "LayerNormalization", "layer normalization",
    (ins AnyTensor:$X, AnyTensor:$Scale, Graph_TensorOrNone:$B,
         Graph_I64<-1>:$axis, Graph_F32<"1.0e-5">:$epsilon,
         Graph_I64<1>:$stash_type),
    (outs AnyTensor:$Y, Graph_TensorOrNone:$Mean,
          Graph_TensorOrNone:$InvStdDev), 1> {
  let hasVerifier = 1;
}

def Graph_GroupNormalizationOp : Graph_OnnxOp<"group_normalization",
    "GroupNormalization", "group normalization",
    (ins AnyTensor:$X, AnyTensor:$scale, AnyTensor:$bias,
         Graph_F32<"1.0e-5">:$epsilon, Graph_I64Attr:$num_groups,
         Graph_I64<1>:$stash_type),
    (outs AnyTensor:$Y), 1>;

def Graph_RMSNormalizationOp : Graph_OnnxOp<"rms_normalization",
    "RMSNormalization", "root-mean-square normalization",
    (ins AnyTensor:$X, AnyTensor:$scale, Graph_I64<-1>:$axis,
         Graph_F32<"1.0e-5">:$epsilon, Graph_I64<1>:$stash_type),
    (outs AnyTensor:$Y), 1>;

def Graph_LRNOp : Graph_OnnxOp<"lrn", "LRN", "local response normalization",
    (ins AnyTensor:$X, Graph_F32<"0.0001">:$alpha, Graph_F32<"0.75">:$beta,
         Graph_F32<"1.0">:$bias, Graph_I64Attr:$size),
    (outs AnyTensor:$Y), 1>;

def Graph_MeanVarianceNormalizationOp : Graph_OnnxOp<
    "mean_variance_normalization", "MeanVarianceNormalization",
    "mean-variance normalization",
    (ins AnyTensor:$X, Graph_OptI64s:$axes), (outs AnyTensor:$Y), 1>;

def Graph_LpNormalizationOp : Graph_OnnxOp<"lp_normalization",
    "LpNormalization", "Lp normalization along an axis",
    (ins AnyTensor:$input, Graph_I64<-1>:$axis, Graph_I64<2>:$p),
    (outs AnyTensor:$output), 1>;

def Graph_DropoutOp : Graph_OnnxOp<"dropout", "Dropout",
    "dropout (the identity at inference)",
    (ins AnyTensor:$data, Graph_TensorOrNone:$ratio,
         Graph_TensorOrNone:$training_mode, OptionalAttr<Graph_I64Attr>:$seed),
    (outs AnyTensor:$output, Graph_TensorOrNone:$mask), 1>;

//===----------------------------------------------------------------------===//
// Softmax family
//===----------------------------------------------------------------------===//

class Graph_SoftmaxLikeOp<string mnemonic, string onnxName, string what>
    : Graph_Op<mnemonic, onnxName, [Pure, Graph_SameShapeInference]> {
  let summary = what # " along one axis (ONNX " # onnxName # ")";
  let description = "Computes " # what # " along `axis` (the opset-13 "
      # "semantics; the importer rewrites the older flatten-to-2D form).\n\n"
      # "Example:\n\n```mlir\n%y = graph." # mnemonic
      # " %x {axis = -1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>\n```";
  let arguments = (ins AnyTensor:$input, Graph_I64<-1>:$axis);
  let results = (outs AnyTensor:$output);
  let hasVerifier = 1;
}

def Graph_SoftmaxOp : Graph_SoftmaxLikeOp<"softmax", "Softmax", "softmax">;
def Graph_LogSoftmaxOp : Graph_SoftmaxLikeOp<"log_softmax", "LogSoftmax",
                                             "log of softmax">;
def Graph_HardmaxOp : Graph_SoftmaxLikeOp<"hardmax", "Hardmax",
                                          "one-hot of the first maximum">;

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_OnnxOp<"mat_mul", "MatMul",
    "matrix product with numpy semantics",
    (ins AnyTensor:$A, AnyTensor:$B), (outs AnyTensor:$Y), 1> {
  let description = [{
    numpy `matmul`: 1-d operands are promoted to matrices, batch dimensions
    broadcast.

    Example:
    ```mlir
    %y = graph.mat_mul %a, %b : (tensor<4x2x3xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
    ```
  }];
  let hasVerifier = 1;
}

def Graph_GemmOp : Graph_OnnxOp<"gemm", "Gemm",
    "general matrix multiply alpha * A' * B' + beta * C",
    (ins AnyTensor:$A, AnyTensor:$B, Graph_TensorOrNone:$C,
         Graph_F32<"1.0">:$alpha, Graph_F32<"1.0">:$beta,
         Graph_I64<0>:$transA, Graph_I64<0>:$transB),
    (outs AnyTensor:$Y), 1> {
  let description = [{
    `A'` is `A` transposed when `transA` is 1 (likewise `B'`); `C` broadcasts
    to the M x N result.

    Example:
    ```mlir
    %y = graph.gemm %a, %b, %c {transB = 1 : i64}
        : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let hasVerifier = 1;
}

def Graph_EinsumOp : Graph_OnnxOp<"einsum", "Einsum",
    "Einstein summation",
    (ins Variadic<AnyTensor>:$Inputs, StrAttr:$equation),
    (outs AnyTensor:$Output), 1>;

def Graph_DetOp : Graph_OnnxOp<"det", "Det", "determinant of square matrices",
    (ins AnyTensor:$X), (outs AnyTensor:$Y)>;

//===----------------------------------------------------------------------===//
// Attention (opset 23)
//===----------------------------------------------------------------------===//

def Graph_AttentionOp : Graph_OnnxOp<"attention", "Attention",
    "scaled dot-product attention",
    (ins AnyTensor:$Q, AnyTensor:$K, AnyTensor:$V,
         Graph_TensorOrNone:$attn_mask, Graph_TensorOrNone:$past_key,
         Graph_TensorOrNone:$past_value, Graph_TensorOrNone:$nonpad_kv_seqlen,
         Graph_I64<0>:$is_causal, OptionalAttr<Graph_I64Attr>:$kv_num_heads,
         OptionalAttr<Graph_I64Attr>:$q_num_heads, Graph_I64<0>:$qk_matmul_output_mode,
         OptionalAttr<F32Attr>:$scale, Graph_F32<"0.0">:$softcap,
         OptionalAttr<Graph_I64Attr>:$softmax_precision),
    (outs AnyTensor:$Y, Graph_TensorOrNone:$present_key,
          Graph_TensorOrNone:$present_value,
          Graph_TensorOrNone:$qk_matmul_output)>;

def Graph_RotaryEmbeddingOp : Graph_OnnxOp<"rotary_embedding",
    "RotaryEmbedding", "rotary positional embedding",
    (ins AnyTensor:$X, AnyTensor:$cos_cache, AnyTensor:$sin_cache,
         Graph_TensorOrNone:$position_ids, Graph_I64<0>:$interleaved,
         OptionalAttr<Graph_I64Attr>:$num_heads, Graph_I64<0>:$rotary_embedding_dim),
    (outs AnyTensor:$Y)>;

//===----------------------------------------------------------------------===//
// Recurrent layers
//===----------------------------------------------------------------------===//

def Graph_Direction : Graph_StrEnum<["forward", "reverse", "bidirectional"],
                                    "forward">;

def Graph_RNNOp : Graph_OnnxOp<"rnn", "RNN", "simple recurrent layer",
    (ins AnyTensor:$X, AnyTensor:$W, AnyTensor:$R, Graph_TensorOrNone:$B,
         Graph_TensorOrNone:$sequence_lens, Graph_TensorOrNone:$initial_h,
         Graph_OptF32s:$activation_alpha, Graph_OptF32s:$activation_beta,
         OptionalAttr<StrArrayAttr>:$activations, OptionalAttr<F32Attr>:$clip,
         Graph_Direction:$direction, OptionalAttr<Graph_I64Attr>:$hidden_size,
         Graph_I64<0>:$layout),
    (outs Graph_TensorOrNone:$Y, Graph_TensorOrNone:$Y_h), 1> {
  let hasVerifier = 1;
}

def Graph_GRUOp : Graph_OnnxOp<"gru", "GRU", "gated recurrent unit layer",
    (ins AnyTensor:$X, AnyTensor:$W, AnyTensor:$R, Graph_TensorOrNone:$B,
         Graph_TensorOrNone:$sequence_lens, Graph_TensorOrNone:$initial_h,
         Graph_OptF32s:$activation_alpha, Graph_OptF32s:$activation_beta,
         OptionalAttr<StrArrayAttr>:$activations, OptionalAttr<F32Attr>:$clip,
         Graph_Direction:$direction, OptionalAttr<Graph_I64Attr>:$hidden_size,
         Graph_I64<0>:$layout, Graph_I64<0>:$linear_before_reset),
    (outs Graph_TensorOrNone:$Y, Graph_TensorOrNone:$Y_h), 1> {
  let hasVerifier = 1;
}

def Graph_LSTMOp : Graph_OnnxOp<"lstm", "LSTM", "long short-term memory layer",
    (ins AnyTensor:$X, AnyTensor:$W, AnyTensor:$R, Graph_TensorOrNone:$B,
         Graph_TensorOrNone:$sequence_lens, Graph_TensorOrNone:$initial_h,
         Graph_TensorOrNone:$initial_c, Graph_TensorOrNone:$P,
         Graph_OptF32s:$activation_alpha, Graph_OptF32s:$activation_beta,
         OptionalAttr<StrArrayAttr>:$activations, OptionalAttr<F32Attr>:$clip,
         Graph_Direction:$direction, OptionalAttr<Graph_I64Attr>:$hidden_size,
         Graph_I64<0>:$input_forget, Graph_I64<0>:$layout),
    (outs Graph_TensorOrNone:$Y, Graph_TensorOrNone:$Y_h,
          Graph_TensorOrNone:$Y_c), 1> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Losses (forward computation only)
//===----------------------------------------------------------------------===//

def Graph_LossReduction : Graph_StrEnum<["none", "sum", "mean"], "mean">;

def Graph_NegativeLogLikelihoodLossOp : Graph_OnnxOp<
    "negative_log_likelihood_loss", "NegativeLogLikelihoodLoss",
    "negative log-likelihood loss",
    (ins AnyTensor:$input, AnyTensor:$target, Graph_TensorOrNone:$weight,
         OptionalAttr<Graph_I64Attr>:$ignore_index, Graph_LossReduction:$reduction),
    (outs AnyTensor:$loss)> {
  let hasVerifier = 1;
}

def Graph_SoftmaxCrossEntropyLossOp : Graph_OnnxOp<
    "softmax_cross_entropy_loss", "SoftmaxCrossEntropyLoss",
    "softmax cross-entropy loss",
    (ins AnyTensor:$scores, AnyTensor:$labels, Graph_TensorOrNone:$weights,
         OptionalAttr<Graph_I64Attr>:$ignore_index, Graph_LossReduction:$reduction),
    (outs AnyTensor:$output, Graph_TensorOrNone:$log_prob)> {
  let hasVerifier = 1;
}

#endif // INFER_DIALECTS_GRAPH_IR_NNOPS_TD
