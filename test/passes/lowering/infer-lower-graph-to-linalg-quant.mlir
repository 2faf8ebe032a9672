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
