// Round trip: every op family parses, verifies and prints back the same.
// RUN: infer-opt %s | infer-opt | FileCheck %s
// RUN: infer-opt %s --mlir-print-op-generic | infer-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x3xi1>) -> tensor<2x3xf32> {
  // CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.relu
  %1 = graph.relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.leaky_relu %{{.+}} {alpha = 2.000000e-01 : f32}
  %2 = graph.leaky_relu %1 {alpha = 0.2 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.where
  %3 = graph.where %c, %2, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.max %{{.+}}, %{{.+}}, %{{.+}} :
  %4 = graph.max %3, %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.cast %{{.+}} {to = f16}
  %5 = graph.cast %4 {to = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK: graph.equal
  %6 = graph.equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %4 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x10xf32> {
  // CHECK: graph.conv %{{.+}}, %{{.+}}, %{{.+}} {pads = array<i64: 1, 1, 1, 1>}
  %0 = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %none = graph.none
  // CHECK: graph.max_pool {{.+}} -> (tensor<1x4x4x4xf32>, none)
  %1, %2 = graph.max_pool %0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> (tensor<1x4x4x4xf32>, none)
  %3 = graph.global_average_pool %1 : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %4 = graph.flatten %3 {axis = 1 : i64} : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %wt = graph.constant dense<1.0> : tensor<10x4xf32>
  // CHECK: graph.gemm {{.+}} {transB = 1 : i64}
  %5 = graph.gemm %4, %wt, %none {transB = 1 : i64} : (tensor<1x4xf32>, tensor<10x4xf32>, none) -> tensor<1x10xf32>
  // CHECK: graph.softmax
  %6 = graph.softmax %5 : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %6 : tensor<1x10xf32>
}

// CHECK-LABEL: func.func @tensors
func.func @tensors(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // CHECK: graph.constant dense<[6, 4]> : tensor<2xi64>
  %s = graph.constant dense<[6, 4]> : tensor<2xi64>
  %0 = graph.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  // CHECK: graph.transpose %{{.+}} {perm = array<i64: 1, 0>}
  %1 = graph.transpose %0 {perm = array<i64: 1, 0>} : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  // CHECK: graph.reduce_sum
  %2 = graph.reduce_sum %1, %axes {keepdims = 0 : i64} : (tensor<4x6xf32>, tensor<1xi64>) -> tensor<6xf32>
  // CHECK: graph.concat {{.+}} {axis = 0 : i64}
  %3 = graph.concat %0, %0 {axis = 0 : i64} : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<12x4xf32>
  // CHECK: graph.shape
  %4 = graph.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  // CHECK: graph.split {{.+}} -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  %none = graph.none
  %5:2 = graph.split %x, %none {num_outputs = 2 : i64} : (tensor<2x3x4xf32>, none) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%c: tensor<i1>, %x: tensor<2xf32>, %m: tensor<i64>) -> tensor<2xf32> {
  // CHECK: graph.if %{{.+}} : (tensor<i1>) -> tensor<2xf32> then {
  %0 = graph.if %c : (tensor<i1>) -> tensor<2xf32> then {
    graph.yield %x : tensor<2xf32>
  } else {
    %n = graph.neg %x : (tensor<2xf32>) -> tensor<2xf32>
    graph.yield %n : tensor<2xf32>
  }
  // CHECK: graph.loop
  %1 = graph.loop %m, %c, %0 : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %r = graph.relu %v : (tensor<2xf32>) -> tensor<2xf32>
    graph.yield %cond, %r : tensor<i1>, tensor<2xf32>
  }
  return %1 : tensor<2xf32>
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: !graph.seq<tensor<?xf32>>
// CHECK-SAME: !graph.opt<tensor<2xf32>>
// CHECK-SAME: tensor<3x!graph.string>
func.func @types(%s: !graph.seq<tensor<?xf32>>, %o: !graph.opt<tensor<2xf32>>, %t: tensor<3x!graph.string>) -> tensor<i64> {
  // CHECK: graph.sequence_length
  %0 = graph.sequence_length %s : (!graph.seq<tensor<?xf32>>) -> tensor<i64>
  return %0 : tensor<i64>
}
