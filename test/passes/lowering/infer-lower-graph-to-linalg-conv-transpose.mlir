// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// ConvTranspose with static sizes and no dilation, windows that overlap
// (kernel 3, stride 2): one ordinary convolution per stride phase. With
// x = [a, b, c, d] and w = [1, 2, 3], y[2i + k] += x[i] * w[k]: the even
// outputs are 3 * x[q - 1] + 1 * x[q] (taps 2 and 0, reversed), over x
// padded by one on each side, five of them; the odd ones 2 * x[q], four.
// Each phase's result goes into every second element of y.
// CHECK-LABEL: func.func @phases_1d
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 0, 1] high[0, 0, 1]
// CHECK: %[[Y:.+]] = tensor.empty() : tensor<1x1x9xf32>
// CHECK: tensor.extract_slice %[[P]][0, 0, 0] [1, 1, 6] [1, 1, 1]
// CHECK: arith.constant dense<{{\[\[\[}}3.000000e+00, 1.000000e+00]]]> : tensor<1x1x2xf32>
// CHECK: %[[EVEN:.+]] = linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<1x1x1x5xf32>)
// CHECK: %[[Y0:.+]] = tensor.insert_slice %{{.+}} into %[[Y]][0, 0, 0] [1, 1, 5] [1, 1, 2]
// CHECK: tensor.extract_slice %[[P]][0, 0, 1] [1, 1, 4] [1, 1, 1]
// CHECK: arith.constant dense<2.000000e+00> : tensor<1x1x1xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<1x1x1x4xf32>)
// CHECK: %[[Y1:.+]] = tensor.insert_slice %{{.+}} into %[[Y0]][0, 0, 1] [1, 1, 4] [1, 1, 2]
// CHECK: return %[[Y1]]
// CHECK-NOT: arith.remsi
func.func @phases_1d(%x: tensor<1x1x4xf32>) -> tensor<1x1x9xf32> {
  %w = graph.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<1x1x4xf32>, tensor<1x1x3xf32>, none) -> tensor<1x1x9xf32>
  return %0 : tensor<1x1x9xf32>
}

// -----

// A phase with no taps (kernel 1, stride 2: the odd outputs) is its bias.
// CHECK-LABEL: func.func @zero_phase
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0] [1, 1, 3] [1, 1, 2]
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x2xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[Z]], %{{.+}} : tensor<1x1x2xf32>, tensor<1x1xf32>)
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1] [1, 1, 2] [1, 1, 2]
func.func @zero_phase(%x: tensor<1x1x3xf32>, %b: tensor<1xf32>) -> tensor<1x1x5xf32> {
  %w = graph.constant dense<[[[4.0]]]> : tensor<1x1x1xf32>
  %0 = graph.conv_transpose %x, %w, %b {kernel_shape = array<i64: 1>, strides = array<i64: 2>} : (tensor<1x1x3xf32>, tensor<1x1x1xf32>, tensor<1xf32>) -> tensor<1x1x5xf32>
  return %0 : tensor<1x1x5xf32>
}

// -----

// Weights that are not constant: each phase's filters are gathered by a
// generic. Two groups of 2 channels, 3 filters each, kernel 4, stride 2,
// pads 1: phase (0, 0) takes taps 3 and 1 of each dim (in that order), so
// filter (g, m') of channel c reads w[2g + c, m', 3 - 2j, 3 - 2j'].
// CHECK-DAG: #[[GATHER:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 2 + d2, d1, (-d3 + 1) * 2 + 1, (-d4 + 1) * 2 + 1)>
// CHECK-LABEL: func.func @gathered_weights
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[GATHER]], #{{.+}}]{{.+}} ins(%arg1 : tensor<4x3x4x4xf32>) outs(%{{.+}} : tensor<2x3x2x2x2xf32>)
// CHECK: tensor.insert_slice %{{.+}}[0, 0, 0, 0] [1, 6, 5, 5] [1, 1, 2, 2]
// CHECK: tensor.insert_slice %{{.+}}[0, 0, 0, 1] [1, 6, 5, 5] [1, 1, 2, 2]
// CHECK: tensor.insert_slice %{{.+}}[0, 0, 1, 0] [1, 6, 5, 5] [1, 1, 2, 2]
// CHECK: tensor.insert_slice %{{.+}}[0, 0, 1, 1] [1, 6, 5, 5] [1, 1, 2, 2]
func.func @gathered_weights(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x4x4xf32>) -> tensor<1x6x10x10xf32> {
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {group = 2 : i64, kernel_shape = array<i64: 4, 4>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x3x4x4xf32>, none) -> tensor<1x6x10x10xf32>
  return %0 : tensor<1x6x10x10xf32>
}

// -----

// Dilated taps keep the per-element form.
// CHECK-LABEL: func.func @dilated
// CHECK: arith.remsi
// CHECK-NOT: tensor.insert_slice
func.func @dilated(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x11x11xf32> {
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x3x11x11xf32>
  return %0 : tensor<1x3x11x11xf32>
}
