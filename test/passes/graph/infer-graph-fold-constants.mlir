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

// PyTorch's expand idiom: Where(Equal(shape, ConstantOfShape(len) * -1),
// ones, shape). With a static input it folds to the constant target.
// CHECK-LABEL: func.func @expand_idiom_static
// CHECK-NOT: graph.where
// CHECK-NOT: graph.equal
// CHECK-NOT: graph.constant_of_shape
// CHECK: %[[T:.+]] = graph.constant dense<[2, 3, 4, 4]> : tensor<4xi64>
// CHECK: graph.expand %{{.+}}, %[[T]] : (tensor<2x1x1x4xf32>, tensor<4xi64>) -> tensor<2x3x4x4xf32>
func.func @expand_idiom_static(%m: tensor<2x1x1x4xf32>) -> tensor<?x?x?x?xf32> {
  %s = graph.shape %m : (tensor<2x1x1x4xf32>) -> tensor<4xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %b = graph.gather %s, %zero : (tensor<4xi64>, tensor<1xi64>) -> tensor<1xi64>
  %rest = graph.constant dense<[3, 4, 4]> : tensor<3xi64>
  %t = graph.concat %b, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<3xi64>) -> tensor<4xi64>
  %len = graph.constant dense<4> : tensor<1xi64>
  %ones = graph.constant_of_shape %len {value = dense<1> : tensor<1xi64>} : (tensor<1xi64>) -> tensor<4xi64>
  %m1 = graph.constant dense<-1> : tensor<i64>
  %neg = graph.mul %ones, %m1 : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %eq = graph.equal %t, %neg : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %w = graph.where %eq, %ones, %t : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %y = graph.expand %m, %w : (tensor<2x1x1x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

// With a dynamic batch the test still decides (a dim is never -1): the
// Where goes, the Expand reads [batch, 3, 4, 4] and keeps its static dims.
// CHECK-LABEL: func.func @expand_idiom_dynamic
// CHECK-NOT: graph.where
// CHECK: %[[T:.+]] = graph.concat
// CHECK: graph.expand %{{.+}}, %[[T]] : (tensor<?x1x1x4xf32>, tensor<4xi64>) -> tensor<?x3x4x4xf32>
func.func @expand_idiom_dynamic(%m: tensor<?x1x1x4xf32>) -> tensor<?x?x?x?xf32> {
  %s = graph.shape %m : (tensor<?x1x1x4xf32>) -> tensor<4xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %b = graph.gather %s, %zero : (tensor<4xi64>, tensor<1xi64>) -> tensor<1xi64>
  %rest = graph.constant dense<[3, 4, 4]> : tensor<3xi64>
  %t = graph.concat %b, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<3xi64>) -> tensor<4xi64>
  %len = graph.constant dense<4> : tensor<1xi64>
  %ones = graph.constant_of_shape %len {value = dense<1> : tensor<1xi64>} : (tensor<1xi64>) -> tensor<4xi64>
  %m1 = graph.constant dense<-1> : tensor<i64>
  %neg = graph.mul %ones, %m1 : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %eq = graph.equal %t, %neg : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %w = graph.where %eq, %ones, %t : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %y = graph.expand %m, %w : (tensor<?x1x1x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

// A comparison with an unknown dim that a dim cannot decide (dim > 2)
// stays a run-time value.
// CHECK-LABEL: func.func @undecided_compare
// CHECK: graph.greater
// CHECK: graph.where
func.func @undecided_compare(%m: tensor<?x4xf32>) -> tensor<2xi64> {
  %s = graph.shape %m : (tensor<?x4xf32>) -> tensor<2xi64>
  %two = graph.constant dense<2> : tensor<i64>
  %gt = graph.greater %s, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %ones = graph.constant dense<1> : tensor<2xi64>
  %w = graph.where %gt, %s, %ones : (tensor<2xi1>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %w : tensor<2xi64>
}
