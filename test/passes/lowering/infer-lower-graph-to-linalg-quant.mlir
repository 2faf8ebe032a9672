// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on quantization ops (QuantOps.td); static and dynamic shapes
// (passes/lowering/quant/).

// QuantizeLinear: round half to even, add the zero point, saturate.
// CHECK-LABEL: func.func @quantize
// CHECK: math.roundeven
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi
func.func @quantize(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  %0 = graph.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// DequantizeLinear: (x - zero_point) * scale, elementwise, in f32.
// CHECK-LABEL: func.func @dequantize
// CHECK: linalg.generic
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: arith.subf
// CHECK: arith.mulf
func.func @dequantize(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  %0 = graph.dequantize_linear %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// QuantizeLinear and DequantizeLinear over run-time sizes (a QDQ model's
// input in the generic variant): the data's sizes, per-tensor parameters.
// CHECK-LABEL: func.func @qdq_dynamic
// CHECK: tensor.empty(%{{.+}}, %{{.+}}, %{{.+}}) : tensor<?x3x?x?xi8>
// CHECK: math.roundeven
// CHECK: arith.fptoui
// CHECK: tensor.empty(%{{.+}}, %{{.+}}, %{{.+}}) : tensor<?x3x?x?xf32>
// CHECK: arith.uitofp
func.func @qdq_dynamic(%x: tensor<?x3x?x?xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<?x3x?x?xf32> {
  %0 = graph.quantize_linear %x, %s, %z : (tensor<?x3x?x?xf32>, tensor<f32>, tensor<ui8>) -> tensor<?x3x?x?xui8>
  %1 = graph.dequantize_linear %0, %s, %z : (tensor<?x3x?x?xui8>, tensor<f32>, tensor<ui8>) -> tensor<?x3x?x?xf32>
  return %1 : tensor<?x3x?x?xf32>
}

// -----

// A depthwise ConvInteger whose sums stay below 2^24 (9 taps x 255 x 127)
// runs in f32, where every partial sum is an exact integer: x - zx and w
// converted, the f32 convolution, the result converted back to i32.
// CHECK-LABEL: func.func @conv_integer_exact_in_f32
// CHECK: arith.subi
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.fptosi %{{.+}} : f32 to i32
// CHECK: -> tensor<1x2x4x4xi32>
func.func @conv_integer_exact_in_f32(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xi32> {
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<[[[[1, -2, 3], [4, 5, -6], [7, 8, -9]]], [[[127, 0, 0], [0, -127, 0], [0, 0, 1]]]]> : tensor<2x1x3x3xi8>
  %wz = graph.constant dense<0> : tensor<i8>
  %y = graph.conv_integer %x, %w, %xz, %wz {group = 2 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xui8>, tensor<2x1x3x3xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x2x4x4xi32>
  return %y : tensor<1x2x4x4xi32>
}

// -----

// 600 taps x 255 x 127 passes 2^24: the sums stay in i32.
// CHECK-LABEL: func.func @conv_integer_in_i32
// CHECK-NOT: arith.sitofp
// CHECK: arith.muli
// CHECK-NOT: arith.fptosi
// CHECK: return
func.func @conv_integer_in_i32(%x: tensor<1x600x1x1xui8>) -> tensor<1x1x1x1xi32> {
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<127> : tensor<1x600x1x1xi8>
  %wz = graph.constant dense<0> : tensor<i8>
  %y = graph.conv_integer %x, %w, %xz, %wz : (tensor<1x600x1x1xui8>, tensor<1x600x1x1xi8>, tensor<ui8>, tensor<i8>) -> tensor<1x1x1x1xi32>
  return %y : tensor<1x1x1x1xi32>
}
