// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-fold-batch-norm))' | FileCheck %s

// s = scale / sqrt(var + eps) = [2 / sqrt(4), 3 / sqrt(1)] = [1, 3] (eps 0);
// W' = W * s = [1, 3] * 2 = [2, 6]; B' = (B - mean) * s + beta =
// [(1 - 1) * 1 + 0.5, (0 - 2) * 3 + 1] = [0.5, -5]. No BatchNormalization
// is left.
// CHECK-LABEL: func.func @folded
// CHECK-DAG: %[[W:.+]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}6.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<[5.000000e-01, -5.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.+]] = graph.conv %{{.+}}, %[[W]], %[[B]] {group = 2 : i64}
// CHECK-NOT: graph.batch_normalization
// CHECK: return %[[C]]
func.func @folded(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<2.0> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %c = graph.conv %x, %w, %b {group = 2 : i64} : (tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %s = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %beta = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %m = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %y, %rm, %rv = graph.batch_normalization %c, %s, %beta, %m, %v {epsilon = 0.0 : f32} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x2x2xf32>, none, none)
  return %y : tensor<1x2x2x2xf32>
}

// -----

// A Conv whose result is also read elsewhere keeps its BatchNormalization.
// CHECK-LABEL: func.func @shared
// CHECK: graph.batch_normalization
func.func @shared(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %w = graph.constant dense<2.0> : tensor<1x1x1x1xf32>
  %n = graph.none
  %c = graph.conv %x, %w, %n : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, none) -> tensor<1x1x2x2xf32>
  %s = graph.constant dense<1.0> : tensor<1xf32>
  %z = graph.constant dense<0.0> : tensor<1xf32>
  %y, %rm, %rv = graph.batch_normalization %c, %s, %z, %z, %s : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, none, none)
  return %y, %c : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}
