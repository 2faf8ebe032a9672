// The graph-opt pipeline: specialize, propagate, fold, clean up.
// RUN: infer-opt %s --graph-opt='shape=x=2x8' | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<2x8xf32> {graph.name = "x"}) -> tensor<2x2x4xf32>
// CHECK-NOT: graph.shape
// CHECK-NOT: graph.identity
// CHECK: graph.constant dense<[2, 2, 4]>
// CHECK: graph.reshape {{.+}} -> tensor<2x2x4xf32>
func.func @main(%x: tensor<?x8xf32> {graph.name = "x"}) -> tensor<?x?x?xf32> {
  %i = graph.identity %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %s = graph.shape %i {end = 1 : i64} : (tensor<?x8xf32>) -> tensor<1xi64>
  %rest = graph.constant dense<[2, 4]> : tensor<2xi64>
  %t = graph.concat %s, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %y = graph.reshape %i, %t : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
