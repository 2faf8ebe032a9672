// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// A Conv marked by infer-graph-bf16: the input packed two channels to an
// i32 (each rounded to bfloat16, nearest even, a NaN to 0x7fc0; the odd
// channel count padded with 0), the weights packed so at compile time, and
// the convolution over pairs with f32 sums (PairDot.h): lane 1's product
// first. Filter 0 is [1, 2, 3] -> words 0x40003F80, 0x00004040; filter 1
// is [1 + 2^-8 (a tie, to even: 1), -1, 0.5] -> 0xBF803F80, 0x00003F00.
// The bias is added in f32 as before.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 1, 0, 0]
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<1x2x4x4xi32>)
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.addi
// CHECK: arith.cmpf uno
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : i32
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: arith.constant dense<{{\[\[\[\[}}1073758080]], {{\[\[}}16448]]], {{\[\[\[}}-1082114176]], {{\[\[}}16128]]]]> : tensor<2x2x1x1xi32>
// CHECK: linalg.generic
// CHECK-SAME: tensor<1x2x2xi32>, tensor<1x1x2x16xi32>) outs(%{{.+}} : tensor<1x1x2x16xf32>)
// CHECK: ^bb0(%[[W:.+]]: i32, %[[X:.+]]: i32, %[[ACC:.+]]: f32):
// CHECK: %[[XH:.+]] = arith.andi %[[X]], %{{.+}} : i32
// CHECK: %[[XHF:.+]] = arith.bitcast %[[XH]] : i32 to f32
// CHECK: %[[WH:.+]] = arith.andi %[[W]], %{{.+}} : i32
// CHECK: %[[WHF:.+]] = arith.bitcast %[[WH]] : i32 to f32
// CHECK: %[[P1:.+]] = arith.mulf %[[XHF]], %[[WHF]] : f32
// CHECK: %[[S1:.+]] = arith.addf %[[ACC]], %[[P1]] : f32
// CHECK: arith.shli
// CHECK: %[[P0:.+]] = arith.mulf
// CHECK: %[[S0:.+]] = arith.addf %[[S1]], %[[P0]] : f32
// CHECK: linalg.yield %[[S0]] : f32
// CHECK: arith.addf
func.func @conv(%x: tensor<1x3x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<[[[[1.0]], [[2.0]], [[3.0]]], [[[1.00390625]], [[-1.0]], [[0.5]]]]> : tensor<2x3x1x1xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = graph.conv %x, %w, %b {infer.precision = "bf16"} : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}

// -----

// A MatMul by a constant 3 x 2 matrix: A packed along K (its last dim), B
// along its rows. Column 0 is [1 + 3 * 2^-8 (a tie, to even: 1 + 2^-6), 3,
// 5] -> 0x40403F82, 0x000040A0; column 1 is [2, -0.5, 6] -> 0xBF004000,
// 0x000040C0.
// CHECK-LABEL: func.func @mat_mul
// CHECK: outs(%{{.+}} : tensor<2x2xi32>)
// CHECK: arith.constant dense<{{\[\[}}1077952386, -1090502656], [16544, 16576]]> : tensor<2x2xi32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<2x2xi32>, tensor<2x2xi32>) outs(%{{.+}} : tensor<2x2xf32>)
// CHECK: arith.mulf
// CHECK: arith.mulf
func.func @mat_mul(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = graph.constant dense<[[1.01171875, 2.0], [3.0, -0.5], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = graph.mat_mul %x, %w {infer.precision = "bf16"} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// -----

// A Gemm with B transposed (2 x 3, N x K): stored as the K x N matrix
// packed along K, the same words as @mat_mul's, and read untransposed.
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: arith.constant dense<{{\[\[}}1077952386, -1090502656], [16544, 16576]]> : tensor<2x2xi32>
// CHECK: linalg.generic {indexing_maps = [#[[A:.+]], #[[B:.+]], #[[C:.+]]]
// CHECK-SAME: outs(%{{.+}} : tensor<2x2xf32>)
func.func @gemm_trans_b(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = graph.constant dense<[[1.01171875, 3.0, 5.0], [2.0, -0.5, 6.0]]> : tensor<2x3xf32>
  %none = graph.none
  %c = graph.gemm %x, %w, %none {infer.precision = "bf16", transB = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, none) -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// -----

// Unmarked, the same MatMul stays in f32.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: i32
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
func.func @unmarked(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = graph.constant dense<[[1.01171875, 2.0], [3.0, -0.5], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = graph.mat_mul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
