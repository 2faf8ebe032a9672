// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// QLinearMatMul with u8 A and a constant symmetric s8 B: over i32 values
// packing four of K (passes/lowering/quant/PackedMatMul.cpp). B's columns
// [1, 2, 3, -1 | 1] and [-1, 0, 0, 0 | 1] pack into 0xFF030201, 0x01 and
// 0x000000FF, 0x01 (K = 5 padded to 8 with zeros); the corrections are
// -za * sum(column) = -128 * 6 and -128 * 0; the multipliers a_scale *
// b_scale / y_scale = 0.5 * [0.25, 0.5] / 0.125 = [1, 2].
// CHECK-LABEL: func.func @packed
// CHECK-DAG: arith.constant dense<{{\[}}[-16580095, 255], [1, 1]]> : tensor<2x2xi32>
// A's last dimension padded with its zero point (128) and packed.
// CHECK-DAG: arith.constant -128 : i8
// CHECK: tensor.pad
// CHECK: to tensor<3x8xi8>
// CHECK: linalg.generic
// CHECK: arith.shli
// CHECK: -> tensor<3x2xi32>
// The byte-dot matmul.
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.extsi
// CHECK: arith.extui
// CHECK: arith.muli
// CHECK: -> tensor<3x2xi32>
// CHECK-DAG: arith.constant dense<[-768, 0]> : tensor<2xi32>
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: math.roundeven
// CHECK: arith.fptoui
// CHECK: -> tensor<3x2xi8>
func.func @packed(%a: tensor<3x5xui8>) -> tensor<3x2xui8> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %az = graph.constant dense<128> : tensor<ui8>
  %b = graph.constant dense<[[1, -1], [2, 0], [3, 0], [-1, 0], [1, 1]]> : tensor<5x2xi8>
  %bs = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %bz = graph.constant dense<[0, 0]> : tensor<2xi8>
  %ys = graph.constant dense<0.125> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %y = graph.q_linear_mat_mul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<3x5xui8>, tensor<f32>, tensor<ui8>, tensor<5x2xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>) -> tensor<3x2xui8>
  return %y : tensor<3x2xui8>
}

// -----

// A B with a non-zero zero point keeps the generic lowering: operands
// widened to i32 with the zero points subtracted, no packing; the
// per-column scale broadcasts along the last dimension.
// CHECK-LABEL: func.func @asymmetric
// CHECK-NOT: arith.shli
// CHECK: arith.subi
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: tensor<2xf32>
// CHECK: math.roundeven
func.func @asymmetric(%a: tensor<3x5xui8>) -> tensor<3x2xui8> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %az = graph.constant dense<128> : tensor<ui8>
  %b = graph.constant dense<1> : tensor<5x2xi8>
  %bs = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %bz = graph.constant dense<[1, 0]> : tensor<2xi8>
  %ys = graph.constant dense<0.125> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %y = graph.q_linear_mat_mul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<3x5xui8>, tensor<f32>, tensor<ui8>, tensor<5x2xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>) -> tensor<3x2xui8>
  return %y : tensor<3x2xui8>
}

// -----

// MatMulInteger with u8 A and a constant symmetric s8 B: the same packed
// product, plus the correction -za * sum(column) = -128 * [6, 0], in i32.
// CHECK-LABEL: func.func @integer
// CHECK: arith.constant dense<{{\[}}[-16580095, 255], [1, 1]]> : tensor<2x2xi32>
// CHECK: tensor.pad
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.extui
// CHECK: arith.constant dense<[-768, 0]> : tensor<2xi32>
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK-NOT: arith.sitofp
// CHECK: return
func.func @integer(%a: tensor<3x5xui8>) -> tensor<3x2xi32> {
  %az = graph.constant dense<128> : tensor<ui8>
  %b = graph.constant dense<[[1, -1], [2, 0], [3, 0], [-1, 0], [1, 1]]> : tensor<5x2xi8>
  %bz = graph.constant dense<0> : tensor<i8>
  %y = graph.mat_mul_integer %a, %b, %az, %bz : (tensor<3x5xui8>, tensor<5x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}
