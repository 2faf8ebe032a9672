// Folders: identities disappear, constant shape arithmetic folds.
// RUN: infer-opt %s --split-input-file --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.cast %0 {to = f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @shape_of_static
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_of_static(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = graph.shape %x : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @shape_of_dynamic
// CHECK: graph.shape
func.func @shape_of_dynamic(%x: tensor<?x3xf32>) -> tensor<2xi64> {
  %0 = graph.shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @int_arith
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<[7, 3]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @int_arith() -> tensor<2xi64> {
  %a = graph.constant dense<[3, 4]> : tensor<2xi64>
  %b = graph.constant dense<2> : tensor<i64>
  %0 = graph.mul %a, %b : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %1 = graph.sub %0, %b : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %2 = graph.add %1, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %c = graph.constant dense<[1, 3]> : tensor<2xi64>
  %3 = graph.div %2, %c : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %3 : tensor<2xi64>
}

// -----

// Integer division by zero is left for run time.
// CHECK-LABEL: func.func @div_by_zero
// CHECK: graph.div
func.func @div_by_zero() -> tensor<i64> {
  %a = graph.constant dense<3> : tensor<i64>
  %b = graph.constant dense<0> : tensor<i64>
  %0 = graph.div %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @gather_concat_slice
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<[3, 7, 2]> : tensor<3xi64>
// CHECK-NEXT: return %[[C]]
func.func @gather_concat_slice() -> tensor<3xi64> {
  %s = graph.constant dense<[2, 3, 5]> : tensor<3xi64>
  %i = graph.constant dense<1> : tensor<1xi64>
  %g = graph.gather %s, %i : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %seven = graph.constant dense<7> : tensor<1xi64>
  %start = graph.constant dense<0> : tensor<1xi64>
  %end = graph.constant dense<1> : tensor<1xi64>
  %none = graph.none
  %first = graph.slice %s, %start, %end, %none, %none : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<1xi64>
  %c = graph.concat %g, %seven, %first {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %c : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @cast_constant
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<[1, -2]> : tensor<2xi32>
func.func @cast_constant() -> tensor<2xi32> {
  %a = graph.constant dense<[1.7, -2.9]> : tensor<2xf32>
  %0 = graph.cast %a {to = i32} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @unsqueeze_constant
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<5> : tensor<1xi64>
func.func @unsqueeze_constant() -> tensor<1xi64> {
  %a = graph.constant dense<5> : tensor<i64>
  %axes = graph.constant dense<0> : tensor<1xi64>
  %0 = graph.unsqueeze %a, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// A reshape between equal static types is an identity; between equal
// dynamic types it may still move dimensions ([64, 1, 256] -> [64, 4, 64]),
// so it stays.
// CHECK-LABEL: func.func @reshape_static_identity
// CHECK-NEXT: return %arg0
func.func @reshape_static_identity(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = graph.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_kept
// CHECK: graph.reshape
func.func @reshape_dynamic_kept(%x: tensor<?x?x?xf32>, %s: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = graph.reshape %x, %s : (tensor<?x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// An If on a constant condition becomes the branch it takes.
// CHECK-LABEL: func.func @if_constant
// CHECK-NOT: graph.if
// CHECK: %[[Y:.+]] = graph.relu %arg0
// CHECK: return %[[Y]]
func.func @if_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<true> : tensor<i1>
  %y = graph.if %c : (tensor<i1>) -> tensor<4xf32> then {
    %a = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    graph.yield %a : tensor<4xf32>
  } else {
    %b = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    graph.yield %b : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// Where on a constant condition picks an operand of the result's type.
// CHECK-LABEL: func.func @where_constant
// CHECK-NOT: graph.where
// CHECK: return %arg1
func.func @where_constant(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %c = graph.constant dense<false> : tensor<4xi1>
  %w = graph.where %c, %x, %y : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %w : tensor<4xi64>
}

// -----

// Integer Mod folds with Python's sign rule (fmod = 0) and C's (fmod = 1);
// a constant pad table folds through Transpose (PyTorch's F.pad idiom).
// CHECK-LABEL: func.func @mod_transpose
// CHECK-DAG: graph.constant dense<[2, -3]> : tensor<2xi64>
// CHECK-DAG: graph.constant dense<[-3, 2]> : tensor<2xi64>
// CHECK-DAG: graph.constant dense<{{\[}}[0, 2], [1, 3]]> : tensor<2x2xi64>
// CHECK-NOT: graph.mod
// CHECK-NOT: graph.transpose
func.func @mod_transpose() -> (tensor<2xi64>, tensor<2xi64>, tensor<2x2xi64>) {
  %a = graph.constant dense<[-7, 7]> : tensor<2xi64>
  %b = graph.constant dense<[3, -5]> : tensor<2xi64>
  %c = graph.constant dense<[4, 5]> : tensor<2xi64>
  %python = graph.mod %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %m = graph.mod %a, %c {fmod = 1 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %t = graph.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %tt = graph.transpose %t {perm = array<i64: 1, 0>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  return %python, %m, %tt : tensor<2xi64>, tensor<2xi64>, tensor<2x2xi64>
}
