//===- QuantOps.td - quantization graph ops -------------------------------===//
//
// The ONNX quantization operators as imported. A later pass folds QDQ pairs
// and these ops into the quantized forms that the int8 lowering consumes.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_QUANTOPS_TD
#define INFER_DIALECTS_GRAPH_IR_QUANTOPS_TD

include "dialects/graph/IR/Base.td"

def Graph_QuantizeLinearOp : Graph_OnnxOp<"quantize_linear", "QuantizeLinear",
    "float to integer quantization",
    (ins AnyTensor:$x, AnyTensor:$y_scale, Graph_TensorOrNone:$y_zero_point,
         Graph_I64<1>:$axis, Graph_I64<0>:$block_size,
         Graph_I64<0>:$output_dtype, Graph_I64<0>:$precision,
         Graph_I64<1>:$saturate),
    (outs AnyTensor:$y), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
  let description = [{
    `y = saturate(round(x / y_scale) + y_zero_point)`, per tensor (scalar
    scale), per `axis` (1-d scale) or per block of `block_size`.

    Example:
    ```mlir
    %q = graph.quantize_linear %x, %s, %zp : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
    ```
  }];
}

def Graph_DequantizeLinearOp : Graph_OnnxOp<"dequantize_linear",
    "DequantizeLinear", "integer to float dequantization",
    (ins AnyTensor:$x, AnyTensor:$x_scale, Graph_TensorOrNone:$x_zero_point,
         Graph_I64<1>:$axis, Graph_I64<0>:$block_size,
         Graph_I64<0>:$output_dtype),
    (outs AnyTensor:$y), 0, [Pure, Graph_SameShape]> {
  let hasVerifier = 1;
}

def Graph_DynamicQuantizeLinearOp : Graph_OnnxOp<"dynamic_quantize_linear",
    "DynamicQuantizeLinear", "uint8 quantization with a computed scale",
    (ins AnyTensor:$x),
    (outs AnyTensor:$y, AnyTensor:$y_scale, AnyTensor:$y_zero_point), 1>;

def Graph_QLinearMatMulOp : Graph_OnnxOp<"q_linear_mat_mul", "QLinearMatMul",
    "quantized matrix product",
    (ins AnyTensor:$a, AnyTensor:$a_scale, AnyTensor:$a_zero_point,
         AnyTensor:$b, AnyTensor:$b_scale, AnyTensor:$b_zero_point,
         AnyTensor:$y_scale, AnyTensor:$y_zero_point),
    (outs AnyTensor:$y), 1>;

def Graph_MatMulIntegerOp : Graph_OnnxOp<"mat_mul_integer", "MatMulInteger",
    "integer matrix product with i32 accumulation",
    (ins AnyTensor:$A, AnyTensor:$B, Graph_TensorOrNone:$a_zero_point,
         Graph_TensorOrNone:$b_zero_point),
    (outs AnyTensor:$Y), 1>;

def Graph_QLinearConvOp : Graph_OnnxOp<"q_linear_conv", "QLinearConv",
    "quantized convolution",
    (ins AnyTensor:$x, AnyTensor:$x_scale, AnyTensor:$x_zero_point,
         AnyTensor:$w, AnyTensor:$w_scale, AnyTensor:$w_zero_point,
         AnyTensor:$y_scale, AnyTensor:$y_zero_point, Graph_TensorOrNone:$B,
         Graph_AutoPad:$auto_pad, Graph_OptI64s:$dilations,
         Graph_I64<1>:$group, Graph_OptI64s:$kernel_shape,
         Graph_OptI64s:$pads, Graph_OptI64s:$strides),
    (outs AnyTensor:$y), 1>;

def Graph_ConvIntegerOp : Graph_OnnxOp<"conv_integer", "ConvInteger",
    "integer convolution with i32 accumulation",
    (ins AnyTensor:$x, AnyTensor:$w, Graph_TensorOrNone:$x_zero_point,
         Graph_TensorOrNone:$w_zero_point, Graph_AutoPad:$auto_pad,
         Graph_OptI64s:$dilations, Graph_I64<1>:$group,
         Graph_OptI64s:$kernel_shape, Graph_OptI64s:$pads,
         Graph_OptI64s:$strides),
    (outs AnyTensor:$y), 1>;

#endif // INFER_DIALECTS_GRAPH_IR_QUANTOPS_TD
