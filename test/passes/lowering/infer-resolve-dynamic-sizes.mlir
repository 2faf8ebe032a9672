// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --infer-resolve-dynamic-sizes | FileCheck %s

// infer-resolve-dynamic-sizes: the run-time broadcast versions of the
// generic variant (RuntimeBroadcast.h) fold when the sizes they compare
// are equal by construction.

// SiLU over a dynamic batch and length: the Mul's operands are x and
// Sigmoid(x), whose sizes are x's, so neither operand is versioned and no
// broadcast copy is left. The two tensor.empty ops stay two (not CSE).
// CHECK-LABEL: func.func @silu
// CHECK-NOT: scf.if
// CHECK-NOT: neither matches
// CHECK: tensor.empty
// CHECK: linalg.generic
// CHECK: tensor.empty
// CHECK: linalg.generic
// CHECK-NOT: scf.if
// CHECK: return
func.func @silu(%x: tensor<?x4x?xf32>) -> tensor<?x4x?xf32> {
  %0 = graph.sigmoid %x : (tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %1 = graph.mul %0, %x : (tensor<?x4x?xf32>, tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  return %1 : tensor<?x4x?xf32>
}

// -----

// Two inputs whose batches only the run can compare keep their versions.
// CHECK-LABEL: func.func @two_inputs
// CHECK: scf.if
// CHECK: neither matches
// CHECK: scf.if
// CHECK: neither matches
// CHECK: linalg.generic
func.func @two_inputs(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
