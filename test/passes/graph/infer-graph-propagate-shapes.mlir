// RUN: infer-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(infer-graph-propagate-shapes))' | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: -> tensor<1x4x4x4xf32>
// CHECK: graph.conv {{.+}} -> tensor<1x4x8x8xf32>
// CHECK: graph.relu {{.+}} -> tensor<1x4x8x8xf32>
// CHECK: graph.max_pool {{.+}} -> (tensor<1x4x4x4xf32>, none)
func.func @chain(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<*xf32>
  %1 = graph.relu %0 : (tensor<*xf32>) -> tensor<*xf32>
  %2, %3 = graph.max_pool %1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<*xf32>) -> (tensor<*xf32>, none)
  return %2 : tensor<*xf32>
}

// -----

// Known dimensions are kept; unknown ones filled.
// CHECK-LABEL: func.func @broadcast
// CHECK: graph.add {{.+}} -> tensor<5x3xf32>
func.func @broadcast(%a: tensor<?x3xf32>, %b: tensor<5x1xf32>) -> tensor<?x?xf32> {
  %0 = graph.add %a, %b : (tensor<?x3xf32>, tensor<5x1xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_and_reduce
// CHECK: graph.reshape {{.+}} -> tensor<4x6xf32>
// CHECK: graph.reduce_mean {{.+}} -> tensor<4x1xf32>
// CHECK: graph.mat_mul {{.+}} -> tensor<4x2xf32>
func.func @reshape_and_reduce(%x: tensor<2x3x4xf32>, %w: tensor<6x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = graph.constant dense<[4, -1]> : tensor<2xi64>
  %0 = graph.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  %axes = graph.constant dense<[-1]> : tensor<1xi64>
  %1 = graph.reduce_mean %0, %axes : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %2 = graph.mat_mul %0, %w : (tensor<*xf32>, tensor<6x2xf32>) -> tensor<*xf32>
  return %1, %2 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A declared type that contradicts the operands (a dim, or even the rank) is
// a warning; the inferred type wins and flows on to the function's result.
// CHECK-LABEL: func.func @conflict
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: graph.relu {{.+}} -> tensor<2x3xf32>
// CHECK: graph.tanh {{.+}} -> tensor<2x3xf32>
func.func @conflict(%a: tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<?xf32>) {
  // expected-warning @+1 {{result #0: the model declares 'tensor<2x4xf32>', but the operands give 'tensor<2x3xf32>'; using the latter}}
  %0 = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x4xf32>
  // expected-warning @+1 {{result #0: the model declares 'tensor<?xf32>', but the operands give 'tensor<2x3xf32>'; using the latter}}
  %1 = graph.tanh %a : (tensor<2x3xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @slices
// CHECK: graph.slice {{.+}} -> tensor<2x2xf32>
// CHECK: graph.transpose {{.+}} -> tensor<2x2xf32>
// CHECK: graph.concat {{.+}} -> tensor<4x2xf32>
func.func @slices(%x: tensor<4x5xf32>) -> tensor<*xf32> {
  %starts = graph.constant dense<[1, 0]> : tensor<2xi64>
  %ends = graph.constant dense<[3, 4]> : tensor<2xi64>
  %steps = graph.constant dense<[1, 2]> : tensor<2xi64>
  %none = graph.none
  %0 = graph.slice %x, %starts, %ends, %none, %steps : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xi64>, none, tensor<2xi64>) -> tensor<*xf32>
  %1 = graph.transpose %0 : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.concat %0, %1 {axis = 0 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// Scan: the body's state takes the initial state's type, its slice the scan
// input's less the scan axis; the results follow from what the body yields
// (the scan output stacked to the scan length).
// CHECK-LABEL: func.func @scan
// CHECK: graph.scan {{.+}} -> (tensor<2x3xf32>, tensor<4x2x3xf32>)
// CHECK: ^bb0(%{{.+}}: tensor<2x3xf32>, %{{.+}}: tensor<2x3xf32>):
// CHECK: graph.add {{.+}} -> tensor<2x3xf32>
func.func @scan(%s: tensor<2x3xf32>, %x: tensor<4x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %r:2 = graph.scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2x3xf32>, tensor<4x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  ^bb0(%a: tensor<*xf32>, %b: tensor<*xf32>):
    %1 = graph.add %a, %b : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    graph.yield %1, %1 : tensor<*xf32>, tensor<*xf32>
  }
  return %r#0, %r#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Loop: a loop-carried value whose shape changes between iterations is an
// error, not a silently wrong type.
func.func @loop_changing_shape(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<*xf32> {
  %none = graph.none
  // expected-error @+1 {{loop-carried value #0 changes shape from one iteration to the next}}
  %r = graph.loop %m, %none, %v : (tensor<i64>, none, tensor<2xf32>) -> tensor<*xf32> {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<*xf32>):
    %y = graph.concat %x, %x {axis = 0 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    graph.yield %c, %y : tensor<i1>, tensor<*xf32>
  }
  return %r : tensor<*xf32>
}
