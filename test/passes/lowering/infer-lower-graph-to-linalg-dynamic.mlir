// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg=checks=true | FileCheck %s

// The generic variant: `?` dims are sized at run time from the operands.
// An elementwise result takes the size of its first dynamic operand; a
// second dynamic operand is checked against it.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xf32>{{.*}}, %[[B:.+]]: tensor<?x4xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %c0
// CHECK: %[[M:.+]] = tensor.dim %[[B]], %c0
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[M]], %[[N]]
// CHECK: cf.assert %[[SAME]], "node 'add' (Add): dimension 0 of operand 1 does not match
// CHECK: tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic
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

// Gemm: m from A, n static.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.+]]: tensor<?x8xf32>
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[M]]) : tensor<?x3xf32>
// CHECK: linalg.fill
// CHECK: linalg.generic
func.func @gemm(%a: tensor<?x8xf32>, %w: tensor<3x8xf32>) -> tensor<?x3xf32> {
  %none = graph.none
  %0 = graph.gemm %a, %w, %none {transB = 1 : i64} : (tensor<?x8xf32>, tensor<3x8xf32>, none) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

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

// Conv with a dynamic batch: the column buffer and the output take dim 0
// of the input.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.dim %{{.+}}, %c0 : tensor<?x2x5x5xf32>
// CHECK: tensor.empty(%{{.+}}) : tensor<?x1x2x3x3x3x3xf32>
// CHECK: tensor.reshape
func.func @conv(%x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {kernel_shape = array<i64: 3, 3>} : (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, none) -> tensor<?x4x3x3xf32>
  return %0 : tensor<?x4x3x3xf32>
}

// -----

// Flatten to one dynamic dim: its size is the element count over the
// static dims' product.
// CHECK-LABEL: func.func @flatten
// CHECK: arith.divui %{{.+}}, %c12
// CHECK: tensor.from_elements
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
func.func @flatten(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %0 = graph.flatten %x : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0 : tensor<?x12xf32>
}

// -----

// Transpose: result dim i is input dim perm[i].
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x?xf32>
// CHECK-DAG: %[[D0:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[D2:.+]] = tensor.dim %[[X]], %c2
// CHECK: tensor.empty(%[[D2]], %[[D0]]) : tensor<?x3x?xf32>
// CHECK: linalg.transpose
func.func @transpose(%x: tensor<?x3x?xf32>) -> tensor<?x3x?xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 1, 0>} : (tensor<?x3x?xf32>) -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}

// -----

// Concat: the axis size is the sum of the inputs' at run time; a second
// input's dynamic dim off the axis is checked against the first's.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<?x2xf32>{{.*}}, %[[B:.+]]: tensor<?x3xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK: tensor.insert_slice %[[A]] into %{{.+}}[0, 0] [%{{.+}}, 2] [1, 1]
// CHECK: %[[M:.+]] = tensor.dim %[[B]], %c0
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[M]], %[[N]]
// CHECK: cf.assert %[[SAME]], "node 'cat' (Concat): dimension 0 of input 1 differs
// CHECK: tensor.insert_slice %[[B]] into %{{.+}}[0, 2] [%[[M]], 3] [1, 1]
func.func @concat(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32> loc(#cat)
  return %0 : tensor<?x5xf32>
}
#cat = loc("cat"("Concat"))

// -----

// Gather with dynamic indices (an embedding lookup): the result takes the
// indices' dims.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[T:.+]]: tensor<10x4xf32>{{.*}}, %[[I:.+]]: tensor<?x?xi64>
// CHECK: cf.assert %{{.+}}, "'graph.gather': an index is out of range
// CHECK: %[[B:.+]] = tensor.dim %[[I]], %c0
// CHECK: %[[S:.+]] = tensor.dim %[[I]], %c1
// CHECK: tensor.empty(%[[B]], %[[S]]) : tensor<?x?x4xf32>
func.func @embedding(%t: tensor<10x4xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x4xf32> {
  %0 = graph.gather %t, %i : (tensor<10x4xf32>, tensor<?x?xi64>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// Slice of static data with bounds known only at run time: the result's
// length is max(0, ceil((end - start) / step)) after ONNX's clamping.
// CHECK-LABEL: func.func @slice_runtime_bounds
// CHECK: arith.ceildivsi
// CHECK: arith.maxsi
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.empty(%[[N]]) : tensor<?xf32>
func.func @slice_runtime_bounds(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<?xf32> {
  %none = graph.none
  %0 = graph.slice %x, %s, %e, %none, %none : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Window ops support a dynamic batch only.
func.func @pool_spatial(%x: tensor<1x2x?x5xf32>) -> tensor<1x2x?x5xf32> {
  // expected-error @+1 {{failed to legalize operation 'graph.max_pool'}}
  %0, %1 = graph.max_pool %x {kernel_shape = array<i64: 1, 1>} : (tensor<1x2x?x5xf32>) -> (tensor<1x2x?x5xf32>, none)
  return %0 : tensor<1x2x?x5xf32>
}

// -----

// Expand to a shape read at run time: each dim is the target's entry where
// the input's is 1, else the input's, checked to broadcast.
// CHECK-LABEL: func.func @expand_runtime
// CHECK: %[[T0:.+]] = tensor.extract %{{.+}}[%c0]
// CHECK: %[[N:.+]] = tensor.dim
// CHECK: cf.assert {{.+}}, "node 'expand' (Expand): the target shape does not broadcast with the input"
// CHECK: tensor.empty({{.+}}) : tensor<?x2x?x4xf32>
// CHECK: linalg.generic
// CHECK: tensor.extract
func.func @expand_runtime(%x: tensor<?x1x1x4xf32>, %s: tensor<4xi64>) -> tensor<?x2x?x4xf32> {
  %0 = graph.expand %x, %s : (tensor<?x1x1x4xf32>, tensor<4xi64>) -> tensor<?x2x?x4xf32> loc(#expand)
  return %0 : tensor<?x2x?x4xf32>
}
#expand = loc("expand"("Expand"))

// -----

// Reshape to a run-time shape with two unknown entries: 0 copies the input
// dim, -1 takes the rest; the element count is checked.
// CHECK-LABEL: func.func @reshape_runtime
// CHECK: arith.divui
// CHECK: cf.assert {{.+}}, "node 'reshape' (Reshape): the target shape does not hold the input's element count"
// CHECK: tensor.from_elements
// CHECK: tensor.reshape {{.+}} -> tensor<?x?x2x4xf32>
func.func @reshape_runtime(%x: tensor<?x?x8xf32>, %s: tensor<4xi64>) -> tensor<?x?x2x4xf32> {
  %0 = graph.reshape %x, %s : (tensor<?x?x8xf32>, tensor<4xi64>) -> tensor<?x?x2x4xf32> loc(#reshape)
  return %0 : tensor<?x?x2x4xf32>
}
#reshape = loc("reshape"("Reshape"))

// -----

// Unsqueeze with two dynamic dims: each comes from the input's dim.
// CHECK-LABEL: func.func @unsqueeze_two_dynamic
// CHECK: %[[B:.+]] = tensor.dim %{{.+}}, %c0
// CHECK: %[[S:.+]] = tensor.dim %{{.+}}, %c1
// CHECK: tensor.from_elements
// CHECK: tensor.reshape {{.+}} -> tensor<?x1x1x?xf32>
func.func @unsqueeze_two_dynamic(%x: tensor<?x?xf32>) -> tensor<?x1x1x?xf32> {
  %axes = graph.constant dense<[1, 2]> : tensor<2xi64>
  %0 = graph.unsqueeze %x, %axes : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x1x1x?xf32>
  return %0 : tensor<?x1x1x?xf32>
}

// -----

// A recurrent layer with run-time sequence length and batch: the time loop
// runs to the sequence's dim, the state is sized by the batch's.
// CHECK-LABEL: func.func @gru_dynamic
// CHECK-DAG: %[[T:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?x?x4xf32>
// CHECK-DAG: %[[B:.+]] = tensor.dim %{{.+}}, %c1 : tensor<?x?x4xf32>
// CHECK: tensor.empty(%[[B]]) : tensor<?x8xf32>
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %[[T]] step
func.func @gru_dynamic(%x: tensor<?x?x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x8xf32>) -> tensor<?x1x?x8xf32> {
  %none = graph.none
  %y, %h = graph.gru %x, %w, %r, %none, %none, %none {hidden_size = 8 : i64} : (tensor<?x?x4xf32>, tensor<1x24x4xf32>, tensor<1x24x8xf32>, none, none, none) -> (tensor<?x1x?x8xf32>, tensor<1x?x8xf32>)
  return %y : tensor<?x1x?x8xf32>
}
