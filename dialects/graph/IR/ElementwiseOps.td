//===- ElementwiseOps.td - elementwise graph ops --------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_ELEMENTWISEOPS_TD
#define INFER_DIALECTS_GRAPH_IR_ELEMENTWISEOPS_TD

include "dialects/graph/IR/Base.td"

//===----------------------------------------------------------------------===//
// Unary math
//===----------------------------------------------------------------------===//

def Graph_AbsOp : Graph_UnaryOp<"abs", "Abs", "absolute value">;
def Graph_AcosOp : Graph_UnaryOp<"acos", "Acos", "arccosine">;
def Graph_AcoshOp : Graph_UnaryOp<"acosh", "Acosh", "inverse hyperbolic cosine">;
def Graph_AsinOp : Graph_UnaryOp<"asin", "Asin", "arcsine">;
def Graph_AsinhOp : Graph_UnaryOp<"asinh", "Asinh", "inverse hyperbolic sine">;
def Graph_AtanOp : Graph_UnaryOp<"atan", "Atan", "arctangent">;
def Graph_AtanhOp : Graph_UnaryOp<"atanh", "Atanh", "inverse hyperbolic tangent">;
def Graph_CeilOp : Graph_UnaryOp<"ceil", "Ceil", "ceiling">;
def Graph_CosOp : Graph_UnaryOp<"cos", "Cos", "cosine">;
def Graph_CoshOp : Graph_UnaryOp<"cosh", "Cosh", "hyperbolic cosine">;
def Graph_ErfOp : Graph_UnaryOp<"erf", "Erf", "the error function">;
def Graph_ExpOp : Graph_UnaryOp<"exp", "Exp", "the exponential">;
def Graph_FloorOp : Graph_UnaryOp<"floor", "Floor", "floor">;
def Graph_LogOp : Graph_UnaryOp<"log", "Log", "the natural logarithm">;
def Graph_NegOp : Graph_UnaryOp<"neg", "Neg", "negation"> {
  let hasFolder = 1;
}
def Graph_NotOp : Graph_UnaryOp<"not", "Not", "logical not", I1Tensor>;
def Graph_BitwiseNotOp : Graph_UnaryOp<"bitwise_not", "BitwiseNot", "bitwise not">;
def Graph_ReciprocalOp : Graph_UnaryOp<"reciprocal", "Reciprocal", "the reciprocal">;
def Graph_RoundOp : Graph_UnaryOp<"round", "Round", "rounding half to even">;
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", "Sigmoid", "the logistic sigmoid">;
def Graph_SignOp : Graph_UnaryOp<"sign", "Sign", "the sign (-1, 0 or 1)">;
def Graph_SinOp : Graph_UnaryOp<"sin", "Sin", "sine">;
def Graph_SinhOp : Graph_UnaryOp<"sinh", "Sinh", "hyperbolic sine">;
def Graph_SoftplusOp : Graph_UnaryOp<"softplus", "Softplus", "log(1 + exp(x))">;
def Graph_SoftsignOp : Graph_UnaryOp<"softsign", "Softsign", "x / (1 + |x|)">;
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", "Sqrt", "the square root">;
def Graph_TanOp : Graph_UnaryOp<"tan", "Tan", "tangent">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", "Tanh", "hyperbolic tangent">;
def Graph_ReluOp : Graph_UnaryOp<"relu", "Relu", "max(x, 0)">;
def Graph_HardSwishOp : Graph_UnaryOp<"hard_swish", "HardSwish",
                                      "x * max(0, min(1, x / 6 + 1 / 2))">;
def Graph_MishOp : Graph_UnaryOp<"mish", "Mish", "x * tanh(softplus(x))">;

// Unary ops whose result element type differs from the input's.
def Graph_IsNaNOp : Graph_Op<"is_nan", "IsNaN", [Pure, Graph_SameShapeInference]> {
  let summary = "elementwise NaN test (ONNX IsNaN)";
  let description = [{
    Example:
    ```mlir
    %m = graph.is_nan %x : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins AnyTensor:$X);
  let results = (outs I1Tensor:$Y);
}

def Graph_IsInfOp : Graph_Op<"is_inf", "IsInf", [Pure, Graph_SameShapeInference]> {
  let summary = "elementwise infinity test (ONNX IsInf)";
  let description = [{
    Example:
    ```mlir
    %m = graph.is_inf %x {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins AnyTensor:$X, Graph_I64<1>:$detect_negative,
                   Graph_I64<1>:$detect_positive);
  let results = (outs I1Tensor:$Y);
}

//===----------------------------------------------------------------------===//
// Parameterised activations
//===----------------------------------------------------------------------===//

class Graph_ActivationOp<string mnemonic, string onnxName, string what,
                         dag attrs>
    : Graph_Op<mnemonic, onnxName, [Pure, Graph_SameShapeInference]> {
  let summary = what # " (ONNX " # onnxName # ")";
  let description = "Applies " # what # " elementwise with the semantics of "
      # "the ONNX `" # onnxName # "` operator.\n\nExample:\n\n```mlir\n%y = "
      # "graph." # mnemonic # " %x : (tensor<8xf32>) -> tensor<8xf32>\n```";
  let arguments = !con((ins AnyTensor:$X), attrs);
  let results = (outs AnyTensor:$Y);
}

def Graph_EluOp : Graph_ActivationOp<"elu", "Elu", "the ELU",
    (ins Graph_F32<"1.0">:$alpha)>;
def Graph_SeluOp : Graph_ActivationOp<"selu", "Selu", "the scaled ELU",
    (ins Graph_F32<"1.67326319">:$alpha, Graph_F32<"1.05070102">:$gamma)>;
def Graph_LeakyReluOp : Graph_ActivationOp<"leaky_relu", "LeakyRelu",
    "the leaky ReLU", (ins Graph_F32<"0.01">:$alpha)>;
def Graph_HardSigmoidOp : Graph_ActivationOp<"hard_sigmoid", "HardSigmoid",
    "max(0, min(1, alpha * x + beta))",
    (ins Graph_F32<"0.2">:$alpha, Graph_F32<"0.5">:$beta)>;
def Graph_CeluOp : Graph_ActivationOp<"celu", "Celu", "the CELU",
    (ins Graph_F32<"1.0">:$alpha)>;
def Graph_ThresholdedReluOp : Graph_ActivationOp<"thresholded_relu",
    "ThresholdedRelu", "x when x > alpha, else 0",
    (ins Graph_F32<"1.0">:$alpha)>;
def Graph_ShrinkOp : Graph_ActivationOp<"shrink", "Shrink",
    "the shrink function", (ins Graph_F32<"0.0">:$bias,
                                Graph_F32<"0.5">:$lambd)>;
def Graph_GeluOp : Graph_ActivationOp<"gelu", "Gelu", "the GELU",
    (ins Graph_StrEnum<["none", "tanh"], "none">:$approximate)>;

def Graph_CastOp : Graph_Op<"cast", "Cast", [Pure, Graph_SameShapeInference]> {
  let summary = "element type conversion (ONNX Cast)";
  let description = [{
    Converts every element to the element type `to`, with ONNX's rules
    (float to integer truncates toward zero; `saturate` applies to float8
    targets only).

    Example:
    ```mlir
    %y = graph.cast %x {to = i64} : (tensor<4xf32>) -> tensor<4xi64>
    ```
  }];
  let arguments = (ins AnyTensor:$input, TypeAttr:$to, Graph_I64<1>:$saturate);
  let results = (outs AnyTensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_CastLikeOp : Graph_Op<"cast_like", "CastLike",
                                [Pure, Graph_SameShapeInference]> {
  let summary = "cast to the element type of another tensor (ONNX CastLike)";
  let description = [{
    Example:
    ```mlir
    %y = graph.cast_like %x, %t : (tensor<4xf32>, tensor<1xf16>) -> tensor<4xf16>
    ```
  }];
  let arguments = (ins AnyTensor:$input, AnyTensor:$target_type,
                   Graph_I64<1>:$saturate);
  let results = (outs AnyTensor:$output);
}

def Graph_ClipOp : Graph_Op<"clip", "Clip", [Pure, Graph_SameShapeInference]> {
  let summary = "clamp to [min, max] (ONNX Clip)";
  let description = [{
    `min` and `max` are scalar operands or `none` (no bound), the opset-11
    form; the importer turns older `min`/`max` attributes into constants.

    Example:
    ```mlir
    %y = graph.clip %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, Graph_TensorOrNone:$min,
                   Graph_TensorOrNone:$max);
  let results = (outs AnyTensor:$output);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary, with broadcasting
//===----------------------------------------------------------------------===//

def Graph_AddOp : Graph_BinaryOp<"add", "Add", "the sum", AnyTensor, [Commutative]> {
  let hasFolder = 1;
}
def Graph_SubOp : Graph_BinaryOp<"sub", "Sub", "the difference"> {
  let hasFolder = 1;
}
def Graph_MulOp : Graph_BinaryOp<"mul", "Mul", "the product", AnyTensor, [Commutative]> {
  let hasFolder = 1;
}
def Graph_DivOp : Graph_BinaryOp<"div", "Div", "the quotient"> {
  let hasFolder = 1;
}
// Pow allows an exponent of another type (opset 12).
def Graph_PowOp : Graph_BinaryOp<"pow", "Pow", "A to the power B", AnyTensor,
                                 [], 0>;
def Graph_AndOp : Graph_BinaryOp<"and", "And", "logical and", I1Tensor, [Commutative]>;
def Graph_OrOp : Graph_BinaryOp<"or", "Or", "logical or", I1Tensor, [Commutative]>;
def Graph_XorOp : Graph_BinaryOp<"xor", "Xor", "logical xor", I1Tensor, [Commutative]>;
def Graph_EqualOp : Graph_BinaryOp<"equal", "Equal", "equality", I1Tensor, [Commutative]>;
def Graph_GreaterOp : Graph_BinaryOp<"greater", "Greater", "A > B", I1Tensor>;
def Graph_GreaterOrEqualOp : Graph_BinaryOp<"greater_or_equal",
    "GreaterOrEqual", "A >= B", I1Tensor>;
def Graph_LessOp : Graph_BinaryOp<"less", "Less", "A < B", I1Tensor>;
def Graph_LessOrEqualOp : Graph_BinaryOp<"less_or_equal", "LessOrEqual",
    "A <= B", I1Tensor>;
def Graph_BitwiseAndOp : Graph_BinaryOp<"bitwise_and", "BitwiseAnd",
    "bitwise and", AnyTensor, [Commutative]>;
def Graph_BitwiseOrOp : Graph_BinaryOp<"bitwise_or", "BitwiseOr",
    "bitwise or", AnyTensor, [Commutative]>;
def Graph_BitwiseXorOp : Graph_BinaryOp<"bitwise_xor", "BitwiseXor",
    "bitwise xor", AnyTensor, [Commutative]>;

def Graph_ModOp : Graph_BinaryOp<"mod", "Mod", "the remainder"> {
  let description = [{
    With `fmod = 0` (integers only) the result has the sign of the divisor,
    like Python's `%`; with `fmod = 1` it has the sign of the dividend, like
    C's `fmod`.

    Example:
    ```mlir
    %r = graph.mod %a, %b {fmod = 0 : i64} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins AnyTensor:$A, AnyTensor:$B, Graph_I64<0>:$fmod);
  let hasFolder = 1;
}

def Graph_BitShiftOp : Graph_BinaryOp<"bit_shift", "BitShift", "a bit shift"> {
  let arguments = (ins AnyTensor:$A, AnyTensor:$B,
                   Graph_StrOneOf<["LEFT", "RIGHT"]>:$direction);
}

def Graph_PReluOp : Graph_BinaryOp<"p_relu", "PRelu",
                                   "the parametric ReLU (x, or slope * x below 0)"> {
  let arguments = (ins AnyTensor:$X, AnyTensor:$slope);
  let results = (outs AnyTensor:$Y);
}

//===----------------------------------------------------------------------===//
// Variadic and ternary
//===----------------------------------------------------------------------===//

def Graph_MaxOp : Graph_VariadicOp<"max", "Max", "maximum">;
def Graph_MinOp : Graph_VariadicOp<"min", "Min", "minimum">;
def Graph_MeanOp : Graph_VariadicOp<"mean", "Mean", "mean">;
def Graph_SumOp : Graph_VariadicOp<"sum", "Sum", "sum">;

def Graph_WhereOp : Graph_Op<"where", "Where", [Pure, Graph_BroadcastShapeInference]> {
  let summary = "elementwise select (ONNX Where)";
  let description = [{
    Picks `X` where `condition` is true, else `Y`, all three broadcast.

    Example:
    ```mlir
    %r = graph.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins I1Tensor:$condition, AnyTensor:$X, AnyTensor:$Y);
  let results = (outs AnyTensor:$output);
  let hasFolder = 1;
}

#endif // INFER_DIALECTS_GRAPH_IR_ELEMENTWISEOPS_TD
