// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// QLinearConv with u8 input and constant symmetric s8 weights: over i32
// values packing four input channels (passes/lowering/quant/PackedConv.cpp).
// The weights [1, 2, 3, -1, 0, 0, 0, 1] pack into two words, 0xFF030201
// and 0x01000000; the correction is bias - zx * sum(w) = 10 - 128 * 6 =
// -758; the multiplier x_scale * w_scale / y_scale = 0.5 * 0.25 / 0.125 =
// 1.
// CHECK-LABEL: func.func @packed
// CHECK: arith.constant dense<{{\[}}{{\[}}{{\[}}[-16580095]], {{\[}}[16777216]]]]> : tensor<1x2x1x1xi32>
// The input's four channels into one i32 each.
// CHECK: linalg.generic
// CHECK: arith.extui
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: -> tensor<1x2x3x3xi32>
// The byte-dot convolution: u8 lanes of the input, s8 lanes of the weights.
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]
// CHECK: ^bb0(%[[W:.+]]: i32, %[[X:.+]]: i32, %[[ACC:.+]]: i32):
// CHECK: %[[WL:.+]] = arith.trunci %[[W]] : i32 to i8
// CHECK: arith.extsi %[[WL]] : i8 to i32
// CHECK: %[[XL:.+]] = arith.trunci %[[X]] : i32 to i8
// CHECK: arith.extui %[[XL]] : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi %[[ACC]]
// CHECK-COUNT-3: arith.shrui
// Requantized: (acc + correction) * multiplier, rounded, zero point, saturated.
// CHECK-DAG: arith.constant dense<-758> : tensor<1x1x1x1xi32>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<1x1x1x1xf32>
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: math.roundeven
// CHECK: arith.fptoui
// CHECK: -> tensor<1x1x3x3xi8>
func.func @packed(%x: tensor<1x8x3x3xui8>) -> tensor<1x1x3x3xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<[[[[1]], [[2]], [[3]], [[-1]], [[0]], [[0]], [[0]], [[1]]]]> : tensor<1x8x1x1xi8>
  %ws = graph.constant dense<[0.25]> : tensor<1xf32>
  %wz = graph.constant dense<[0]> : tensor<1xi8>
  %ys = graph.constant dense<0.125> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %b = graph.constant dense<[10]> : tensor<1xi32>
  %y = graph.q_linear_conv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b {kernel_shape = array<i64: 1, 1>} : (tensor<1x8x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x8x1x1xi8>, tensor<1xf32>, tensor<1xi8>, tensor<f32>, tensor<ui8>, tensor<1xi32>) -> tensor<1x1x3x3xui8>
  return %y : tensor<1x1x3x3xui8>
}

// -----

// Three channels pad to four with the input's zero point (128 = -128 as
// i8), and the spatial padding is that zero point in every lane
// (0x80808080).
// CHECK-LABEL: func.func @padded
// CHECK: %[[ZX:.+]] = arith.constant -128 : i8
// CHECK: tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 1, 0, 0]
// CHECK: tensor.yield %[[ZX]]
// CHECK: tensor<1x3x3x3xi8> to tensor<1x4x3x3xi8>
// CHECK: %[[LANES:.+]] = arith.constant -2139062144 : i32
// CHECK: tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[LANES]]
// CHECK: tensor<1x1x3x3xi32> to tensor<1x1x5x5xi32>
func.func @padded(%x: tensor<1x3x3x3xui8>) -> tensor<1x2x3x3xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %wz = graph.constant dense<0> : tensor<2xi8>
  %ys = graph.constant dense<0.125> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %none = graph.none
  %y = graph.q_linear_conv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %none {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x3x3xui8>
  return %y : tensor<1x2x3x3xui8>
}

// -----

// Asymmetric weights (a nonzero zero point) keep the generic lowering:
// (x - zx) and (w - zw) widened to i32, multiplied and added.
// CHECK-LABEL: func.func @asymmetric
// CHECK-NOT: arith.shrui
// CHECK: arith.subi
// CHECK-NOT: arith.shrui
func.func @asymmetric(%x: tensor<1x4x3x3xui8>) -> tensor<1x1x3x3xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<[[[[1]], [[2]], [[3]], [[-1]]]]> : tensor<1x4x1x1xi8>
  %ws = graph.constant dense<[0.25]> : tensor<1xf32>
  %wz = graph.constant dense<[2]> : tensor<1xi8>
  %ys = graph.constant dense<0.125> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %none = graph.none
  %y = graph.q_linear_conv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %none {kernel_shape = array<i64: 1, 1>} : (tensor<1x4x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x4x1x1xi8>, tensor<1xf32>, tensor<1xi8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x1x3x3xui8>
  return %y : tensor<1x1x3x3xui8>
}
