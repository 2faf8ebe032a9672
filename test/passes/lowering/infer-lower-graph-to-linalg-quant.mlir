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
