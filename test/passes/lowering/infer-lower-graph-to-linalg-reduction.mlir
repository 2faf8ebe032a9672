// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on reductions (ReductionOps.td); static and dynamic shapes
// (passes/lowering/reduction/).

// A reduction keeps the dynamic dims it does not reduce; Mean divides by
// the element count computed at run time when a reduced dim is dynamic.
// CHECK-LABEL: func.func @mean
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>
// CHECK: %[[K:.+]] = tensor.dim %[[X]], %c1
// CHECK: arith.index_cast
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @mean(%x: tensor<2x?xf32>) -> tensor<2x1xf32> {
  %axes = graph.constant dense<1> : tensor<1xi64>
  %0 = graph.reduce_mean %x, %axes : (tensor<2x?xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// ArgMax: one reduction carrying the best value and its index; the first
// index wins ties (the comparison is strict, index 0 seeds it).
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.select
// CHECK: return %{{.*}}#1 : tensor<2x1xi64>
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = graph.arg_max %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// ArgMax over run-time sizes (CLIP's end-of-text position in the generic
// variant): the kept dims are the input's, and keepdims = 0 drops the unit
// dim through a reshape sized at run time.
// CHECK-LABEL: func.func @argmax_dynamic
// CHECK: %[[B:.+]] = tensor.dim %arg0, %c0
// CHECK: tensor.empty(%[[B]]) : tensor<?x1xi32>
// CHECK: tensor.empty(%[[B]]) : tensor<?x1xi64>
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK: tensor.reshape {{.+}} -> tensor<?xi64>
func.func @argmax_dynamic(%x: tensor<?x?xi32>) -> tensor<?xi64> {
  %0 = graph.arg_max %x {axis = -1 : i64, keepdims = 0 : i64} : (tensor<?x?xi32>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
