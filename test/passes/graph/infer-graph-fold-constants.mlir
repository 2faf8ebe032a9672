// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-graph-fold-constants))' | FileCheck %s

// A shape subgraph on a static input folds away; the Reshape's result
// becomes static.
// CHECK-LABEL: func.func @shape_chain
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NOT: graph.shape
// CHECK-NOT: graph.gather
// CHECK-NOT: graph.concat
// CHECK: %[[T:.+]] = graph.constant dense<[2, 12]> : tensor<2xi64>
// CHECK: graph.reshape %[[X]], %[[T]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<?x?xf32> {
  %s = graph.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %b = graph.gather %s, %zero : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %one = graph.constant dense<1> : tensor<1xi64>
  %three = graph.constant dense<3> : tensor<1xi64>
  %none = graph.none
  %rest = graph.slice %s, %one, %three, %none, %none : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<2xi64>
  %axes = graph.constant dense<0> : tensor<1xi64>
  %p = graph.reduce_prod %rest, %axes : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t = graph.concat %b, %p {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = graph.reshape %x, %t : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// With a dynamic batch, the entries that read static dims fold (the Gather
// of dim 2), the batch stays a run-time value, and the Reshape keeps the
// static dims of its partly known target.
// CHECK-LABEL: func.func @partial_shape
// CHECK-DAG: %[[C:.+]] = graph.constant dense<6> : tensor<1xi64>
// CHECK-DAG: %[[S:.+]] = graph.shape %{{.+}} : (tensor<?x4x6xf32>) -> tensor<3xi64>
// CHECK: %[[CAT:.+]] = graph.concat %{{.+}}, %[[C]]
// CHECK: graph.reshape %{{.+}}, %[[CAT]] : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x6xf32>
func.func @partial_shape(%x: tensor<?x4x6xf32>) -> tensor<?x?xf32> {
  %s = graph.shape %x : (tensor<?x4x6xf32>) -> tensor<3xi64>
  %i0 = graph.constant dense<0> : tensor<1xi64>
  %i2 = graph.constant dense<2> : tensor<1xi64>
  %n = graph.gather %s, %i0 : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %four = graph.constant dense<4> : tensor<1xi64>
  %rows = graph.mul %n, %four : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c = graph.gather %s, %i2 : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t = graph.concat %rows, %c {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = graph.reshape %x, %t : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
