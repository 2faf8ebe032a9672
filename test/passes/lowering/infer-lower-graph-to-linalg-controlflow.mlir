// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on control flow (ControlFlowOps.td): If, Scan, Loop; static and dynamic shapes
// (passes/lowering/controlflow/).

// If: scf.if on the condition's element; the branches move over with
// their ops lowered and graph.yield becomes scf.yield.
// CHECK-LABEL: func.func @if
// CHECK: %[[C:.+]] = tensor.extract %{{.+}}[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<3xf32>)
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: } else {
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: scf.yield
func.func @if(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.if %c : (tensor<i1>) -> tensor<3xf32> then {
    %a = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %a : tensor<3xf32>
  } else {
    %m = graph.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %m : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Scan: an scf.for over the scan axis carrying the state and the stacked
// output; the body moves in between a slice extraction and an insertion.
// CHECK-LABEL: func.func @scan
// CHECK: scf.for %[[I:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2xf32>, tensor<3x2xf32>)
// CHECK: tensor.extract_slice %{{.+}}[%[[I]], 0] [1, 2] [1, 1] : tensor<3x2xf32> to tensor<2xf32>
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[I]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x2xf32>
// CHECK: scf.yield
func.func @scan(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %r:2 = graph.scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %1 = graph.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %1, %1 : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<3x2xf32>
}

// -----

// Loop without scan outputs: an scf.while on (step < trip count) and the
// condition, carrying the step, the condition and the values.
// CHECK-LABEL: func.func @loop_while
// CHECK: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (i64, i1, tensor<2xf32>) -> (i64, i1, tensor<2xf32>)
// CHECK: arith.cmpi slt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: tensor.from_elements
// CHECK: arith.mulf
// CHECK: scf.yield
func.func @loop_while(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>) -> tensor<2xf32> {
  %r = graph.loop %m, %c, %v : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>):
    %y = graph.mul %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %cond, %y : tensor<i1>, tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// A Loop whose scan output length is not a compile-time trip count: an
// scf.while that also stops at the declared length (4), then a run-time
// check that it would have stopped there anyway.
// CHECK-LABEL: func.func @loop_runtime_count
// CHECK: scf.while
// CHECK: arith.cmpi slt, %{{.+}}, %c4_i64
// CHECK: scf.condition
// CHECK: tensor.insert_slice
// CHECK: cf.assert %{{.+}}, "'graph.loop': the loop runs a number of iterations other than the length the model declares for its scan outputs (4)"
func.func @loop_runtime_count(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<4x2xf32> {
  %none = graph.none
  %r:2 = graph.loop %m, %none, %v : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>) {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>):
    graph.yield %cond, %x, %x : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#1 : tensor<4x2xf32>
}
