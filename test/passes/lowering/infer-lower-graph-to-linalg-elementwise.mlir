// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on elementwise ops (dialects/graph/IR/ElementwiseOps.td); static and dynamic shapes
// (passes/lowering/elementwise/).

// Broadcasting binary op: one linalg.generic whose maps broadcast.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// The caller's inputs are never written in place.
// CHECK-LABEL: func.func @add
// CHECK-SAME: {bufferization.writable = false}
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK-NOT: graph.
func.func @add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unsigned types become signless, with unsigned arithmetic.
// CHECK-LABEL: func.func @udiv
// CHECK-SAME: (%{{[^:]+}}: tensor<4xi8> {{{[^}]+}}}, %{{[^:]+}}: tensor<4xi8> {{{[^}]+}}}) -> tensor<4xi8>
// CHECK: arith.divui
func.func @udiv(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = graph.div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Signed integer Abs is max(x, 0 - x), which every target lowers (NVVM
// converts no math.absi); unsigned Abs is the value itself.
// CHECK-LABEL: func.func @abs_int
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: %[[NEG:.+]] = arith.subi %[[Z]], %[[X]] : i32
// CHECK: arith.maxsi %[[X]], %[[NEG]] : i32
// CHECK-NOT: math.absi
func.func @abs_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.abs %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The generic variant: `?` dims are sized at run time from the operands.
// Two dynamic operands at one position may broadcast at run time (either
// may be 1): the result takes the first size that is not 1, and each
// operand is used as is when its size is the result's, else broadcast by a
// copy (checked to be 1 or equal).
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xf32>{{.*}}, %[[B:.+]]: tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %c0
// CHECK: %[[M:.+]] = tensor.dim %[[B]], %c0
// CHECK: %[[ONE:.+]] = arith.cmpi eq, %[[N]], %c1
// CHECK: %[[SIZE:.+]] = arith.select %[[ONE]], %[[M]], %[[N]]
// CHECK: %[[A2:.+]] = scf.if %{{.+}} -> (tensor<?x4xf32>) {
// CHECK-NEXT: scf.yield %[[A]]
// CHECK: } else {
// CHECK: cf.assert %{{.+}}, "node 'add' (Add): dimension 0 of operand 0 neither matches nor broadcasts
// CHECK: arith.minsi
// CHECK: tensor.extract %[[A]]
// CHECK: %[[B2:.+]] = scf.if %{{.+}} -> (tensor<?x4xf32>) {
// CHECK-NEXT: scf.yield %[[B]]
// CHECK: cf.assert %{{.+}}, "node 'add' (Add): dimension 0 of operand 1 neither matches nor broadcasts
// CHECK: tensor.empty(%[[SIZE]]) : tensor<?x4xf32>
// CHECK: linalg.generic {{.+}} ins(%[[A2]], %[[B2]] :
func.func @add(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32> loc(#add)
  return %0 : tensor<?x4xf32>
}
#add = loc("add"("Add"))

// -----

// A static operand that broadcasts needs no check.
// CHECK-LABEL: func.func @bias
// CHECK-NOT: cf.assert
// CHECK: tensor.empty(%{{.+}}) : tensor<?x4xf32>
func.func @bias(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A one-element `min` of shape [1] clipping a scalar: the operand of higher
// rank than the result is read at its only element.
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<() -> ()>
// CHECK-DAG: #[[ONE:.+]] = affine_map<() -> (0)>
// CHECK-LABEL: func.func @clip_scalar_by_vector
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[ONE]], #[[SCALAR]], #[[SCALAR]]]
func.func @clip_scalar_by_vector(%x: tensor<f32>, %lo: tensor<1xf32>, %hi: tensor<f32>) -> tensor<f32> {
  %0 = graph.clip %x, %lo, %hi : (tensor<f32>, tensor<1xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
