// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// Linear Resize x2 (half_pixel) along one axis: output 2q reads input
// q - 0.25 (0.25 of x[q-1], 0.75 of x[q]), output 2q + 1 reads q + 0.25
// (0.75 of x[q], 0.25 of x[q+1]); the ends repeat the edge. x = [a b c d]
// is padded to [a a b c d d] (x, then its first and last elements), each
// phase is a depthwise convolution with its two weights over a window of
// that, written into every second element of y. No coordinate arithmetic.
// CHECK-LABEL: func.func @linear_1d
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x1x6xf32>
// CHECK: %[[X:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 1] [1, 1, 4] [1, 1, 1]
// CHECK: %[[A:.+]] = tensor.extract_slice %[[X]][0, 0, 1] [1, 1, 1] [1, 1, 1]
// CHECK: %[[XA:.+]] = tensor.insert_slice %[[A]] into %[[X]][0, 0, 0] [1, 1, 1] [1, 1, 1]
// CHECK: %[[D:.+]] = tensor.extract_slice %[[XA]][0, 0, 4] [1, 1, 1] [1, 1, 1]
// CHECK: %[[P:.+]] = tensor.insert_slice %[[D]] into %[[XA]][0, 0, 5] [1, 1, 1] [1, 1, 1]
// CHECK: %[[Y:.+]] = tensor.empty() : tensor<1x1x8xf32>
// CHECK: tensor.extract_slice %[[P]][0, 0, 0] [1, 1, 5] [1, 1, 1]
// CHECK: arith.constant dense<{{\[\[\[}}2.500000e-01, 7.500000e-01]]]> : tensor<1x1x2xf32>
// CHECK: linalg.generic
// CHECK: %[[Y0:.+]] = tensor.insert_slice %{{.+}} into %[[Y]][0, 0, 0] [1, 1, 4] [1, 1, 2]
// CHECK: tensor.extract_slice %[[P]][0, 0, 1] [1, 1, 5] [1, 1, 1]
// CHECK: arith.constant dense<{{\[\[\[}}7.500000e-01, 2.500000e-01]]]> : tensor<1x1x2xf32>
// CHECK: linalg.generic
// CHECK: %[[Y1:.+]] = tensor.insert_slice %{{.+}} into %[[Y0]][0, 0, 1] [1, 1, 4] [1, 1, 2]
// CHECK: return %[[Y1]]
// CHECK-NOT: math.floor
func.func @linear_1d(%x: tensor<1x1x4xf32>) -> tensor<1x1x8xf32> {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "linear"} : (tensor<1x1x4xf32>, none, tensor<3xf32>, none) -> tensor<1x1x8xf32>
  return %0 : tensor<1x1x8xf32>
}

// -----

// asymmetric x2 in 2-D: output 2q reads q exactly, so phase (0, 0) is a
// copy of x (no convolution); (0, 1) and (1, 0) average two neighbours,
// (1, 1) four, one filter per channel. Padding after only, one element.
// CHECK-LABEL: func.func @asymmetric_2d
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x2x4x4xf32>
// CHECK: tensor.insert_slice %arg0 into %[[E]][0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK: %[[C:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT: %[[Y0:.+]] = tensor.insert_slice %[[C]] into %{{.+}}[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK: arith.constant dense<5.000000e-01> : tensor<2x1x1x2xf32>
// CHECK: %[[Y1:.+]] = tensor.insert_slice %{{.+}} into %[[Y0]][0, 0, 0, 1] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK: arith.constant dense<5.000000e-01> : tensor<2x1x2x1xf32>
// CHECK: %[[Y2:.+]] = tensor.insert_slice %{{.+}} into %[[Y1]][0, 0, 1, 0] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK: arith.constant dense<2.500000e-01> : tensor<2x1x2x2xf32>
// CHECK: tensor.insert_slice %{{.+}} into %[[Y2]][0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 2, 2]
func.func @asymmetric_2d(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "linear", coordinate_transformation_mode = "asymmetric"} : (tensor<1x2x3x3xf32>, none, tensor<4xf32>, none) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

// Cubic x2 (half_pixel, a = -0.75): four taps a phase, x padded by two
// on each side. Phase 0 reads q - 2 .. q + 1, phase 1 q - 1 .. q + 2.
// CHECK-LABEL: func.func @cubic_1d
// CHECK: tensor.empty() : tensor<1x1x9xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 0] [1, 1, 8] [1, 1, 1]
// CHECK: arith.constant dense<{{.+}}> : tensor<1x1x4xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 1] [1, 1, 8] [1, 1, 1]
// CHECK: arith.constant dense<{{.+}}> : tensor<1x1x4xf32>
// CHECK-NOT: math.floor
func.func @cubic_1d(%x: tensor<1x1x5xf32>) -> tensor<1x1x10xf32> {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "cubic", cubic_coeff_a = -0.75 : f32} : (tensor<1x1x5xf32>, none, tensor<3xf32>, none) -> tensor<1x1x10xf32>
  return %0 : tensor<1x1x10xf32>
}

// -----

// Not periodic (align_corners), taps renormalized at the edges
// (exclude_outside), scales known only at run time: the general form.
// CHECK-LABEL: func.func @general
// CHECK-COUNT-3: math.floor
// CHECK-NOT: tensor.insert_slice
func.func @general(%x: tensor<1x1x4xf32>, %t: tensor<3xf32>) -> (tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x1x4xf32>, none, tensor<3xf32>, none) -> tensor<1x1x8xf32>
  %1 = graph.resize %x, %none, %s, %none {mode = "cubic", exclude_outside = 1 : i64} : (tensor<1x1x4xf32>, none, tensor<3xf32>, none) -> tensor<1x1x8xf32>
  %2 = graph.resize %x, %none, %t, %none {mode = "linear"} : (tensor<1x1x4xf32>, none, tensor<3xf32>, none) -> tensor<1x1x8xf32>
  return %0, %1, %2 : tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
}
