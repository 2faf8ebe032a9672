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

// -----

// Recurrent results follow from X, R and the attributes, whatever the
// exporter declared.
// CHECK-LABEL: func.func @recurrent
// CHECK: graph.lstm {{.+}} -> (tensor<10x1x2x16xf32>, tensor<1x2x16xf32>, tensor<1x2x16xf32>)
// CHECK: graph.gru {{.+}} -> (tensor<3x7x2x16xf32>, tensor<3x2x16xf32>)
func.func @recurrent(%x: tensor<10x2x8xf32>, %w: tensor<1x64x8xf32>, %r: tensor<1x64x16xf32>,
                     %x2: tensor<3x7x8xf32>, %w2: tensor<2x48x8xf32>, %r2: tensor<2x48x16xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %none = graph.none
  %y, %h, %c = graph.lstm %x, %w, %r, %none, %none, %none, %none, %none {hidden_size = 16 : i64} : (tensor<10x2x8xf32>, tensor<1x64x8xf32>, tensor<1x64x16xf32>, none, none, none, none, none) -> (tensor<?x1x?x16xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>)
  %y2, %h2 = graph.gru %x2, %w2, %r2, %none, %none, %none {direction = "bidirectional", layout = 1 : i64} : (tensor<3x7x8xf32>, tensor<2x48x8xf32>, tensor<2x48x16xf32>, none, none, none) -> (tensor<*xf32>, tensor<*xf32>)
  %a = graph.identity %y : (tensor<?x1x?x16xf32>) -> tensor<*xf32>
  return %a, %y2 : tensor<*xf32>, tensor<*xf32>
}

// -----

// An If's results are what both branches yield; dims they disagree on stay
// dynamic.
// CHECK-LABEL: func.func @if_results
// CHECK: graph.if {{.+}} -> (tensor<2x3xf32>, tensor<2x?xf32>)
func.func @if_results(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %y, %z = graph.if %c : (tensor<i1>) -> (tensor<*xf32>, tensor<*xf32>) then {
    graph.yield %a, %a : tensor<2x3xf32>, tensor<2x3xf32>
  } else {
    %n = graph.neg %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    graph.yield %n, %b : tensor<2x3xf32>, tensor<2x5xf32>
  }
  return %y, %z : tensor<*xf32>, tensor<*xf32>
}

// -----

// quantize_dynamic's ops: DynamicQuantizeLinear keeps x's shape, the
// integer contractions infer theirs.
// CHECK-LABEL: func.func @dynamic_quant
// CHECK: graph.dynamic_quantize_linear {{.+}} -> (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>)
// CHECK: graph.conv_integer {{.+}} -> tensor<1x4x8x8xi32>
// CHECK: graph.mat_mul_integer {{.+}} -> tensor<5x10xi32>
func.func @dynamic_quant(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xi8>, %a: tensor<5x7xui8>, %b: tensor<7x10xi8>) -> (tensor<*xi32>, tensor<*xi32>) {
  %none = graph.none
  %q, %s, %z = graph.dynamic_quantize_linear %x : (tensor<1x3x8x8xf32>) -> (tensor<?x3x8x8xui8>, tensor<*xf32>, tensor<*xui8>)
  %c = graph.conv_integer %q, %w, %z, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xui8>, tensor<4x3x3x3xi8>, tensor<*xui8>, none) -> tensor<*xi32>
  %m = graph.mat_mul_integer %a, %b, %none, %none : (tensor<5x7xui8>, tensor<7x10xi8>, none, none) -> tensor<*xi32>
  return %c, %m : tensor<*xi32>, tensor<*xi32>
}

// -----

// A Slice with run-time bounds on constant axes keeps the other dims (a
// position table cut to the sequence length).
// CHECK-LABEL: func.func @slice_runtime_bounds
// CHECK: graph.slice {{.+}} -> tensor<1x?x64xf32>
func.func @slice_runtime_bounds(%table: tensor<1x128x64xf32>, %end: tensor<1xi64>) -> tensor<*xf32> {
  %zero = graph.constant dense<0> : tensor<1xi64>
  %axis = graph.constant dense<1> : tensor<1xi64>
  %none = graph.none
  %s = graph.slice %table, %zero, %end, %axis, %none : (tensor<1x128x64xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// -----

// The batch passed through a shape subgraph (PyTorch's channel shuffle):
// the Reshape's -1 is solved because its first entry is the data's own
// dynamic batch, traced back through the Transpose and the first Reshape.
// CHECK-LABEL: func.func @reshape_wildcard_symbolic
// CHECK: graph.reshape {{.+}} -> tensor<?x2x24x28x28xf32>
// CHECK: graph.transpose {{.+}} -> tensor<?x24x2x28x28xf32>
// CHECK: graph.reshape {{.+}} -> tensor<?x48x28x28xf32>
func.func @reshape_wildcard_symbolic(%x: tensor<?x48x28x28xf32>) -> tensor<*xf32> {
  %s = graph.shape %x : (tensor<?x48x28x28xf32>) -> tensor<4xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %b = graph.gather %s, %i0 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %a0 = graph.constant dense<0> : tensor<1xi64>
  %b1 = graph.unsqueeze %b, %a0 : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %c2 = graph.constant dense<2> : tensor<1xi64>
  %c24 = graph.constant dense<24> : tensor<1xi64>
  %c28 = graph.constant dense<28> : tensor<1xi64>
  %m1 = graph.constant dense<-1> : tensor<1xi64>
  %t5 = graph.concat %b1, %c2, %c24, %c28, %c28 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xi64>
  %r = graph.reshape %x, %t5 : (tensor<?x48x28x28xf32>, tensor<5xi64>) -> tensor<*xf32>
  %p = graph.transpose %r {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<*xf32>) -> tensor<*xf32>
  %t4 = graph.concat %b1, %m1, %c28, %c28 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %y = graph.reshape %p, %t4 : (tensor<*xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Products of dims: [batch * 2, 64, -1] of a [batch, 2, 64, 1001] tensor
// (Conv-TasNet's decoder) gives 1001; [batch, -1] of a tensor whose second
// dim is another dynamic dim stays dynamic.
// CHECK-LABEL: func.func @reshape_wildcard_product
// CHECK: graph.reshape {{.+}} -> tensor<?x64x1001xf32>
// CHECK: graph.reshape {{.+}} -> tensor<?x?xf32>
func.func @reshape_wildcard_product(%x: tensor<?x2x64x1001xf32>, %z: tensor<?x?x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = graph.shape %x : (tensor<?x2x64x1001xf32>) -> tensor<4xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %b = graph.gather %s, %i0 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %two = graph.constant dense<2> : tensor<i64>
  %b2 = graph.mul %b, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %a0 = graph.constant dense<0> : tensor<1xi64>
  %e0 = graph.unsqueeze %b2, %a0 : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %c64 = graph.constant dense<64> : tensor<1xi64>
  %m1 = graph.constant dense<-1> : tensor<1xi64>
  %t = graph.concat %e0, %c64, %m1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %y = graph.reshape %x, %t : (tensor<?x2x64x1001xf32>, tensor<3xi64>) -> tensor<*xf32>
  %sz = graph.shape %z : (tensor<?x?x3xf32>) -> tensor<3xi64>
  %bz = graph.gather %sz, %i0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %ez = graph.unsqueeze %bz, %a0 : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %tz = graph.concat %ez, %m1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %w = graph.reshape %z, %tz : (tensor<?x?x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %y, %w : tensor<*xf32>, tensor<*xf32>
}

// -----

// A Resize to Concat(Shape(x)[0:2], [20, 20]) keeps x's channels and sizes
// the spatial dims (LR-ASPP's head with a dynamic batch).
// CHECK-LABEL: func.func @resize_partial_sizes
// CHECK: graph.resize {{.+}} -> tensor<?x128x20x20xf32>
func.func @resize_partial_sizes(%x: tensor<?x128x10x10xf32>) -> tensor<*xf32> {
  %s = graph.shape %x : (tensor<?x128x10x10xf32>) -> tensor<4xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %none = graph.none
  %nc = graph.slice %s, %zero, %two, %zero, %none : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<2xi64>
  %hw = graph.constant dense<20> : tensor<2xi64>
  %sizes = graph.concat %nc, %hw {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %y = graph.resize %x, %none, %none, %sizes {mode = "linear"} : (tensor<?x128x10x10xf32>, none, none, tensor<4xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// A refined operand that breaks the op's own invariants (here a `perm` of
// three entries for an input now known to be rank 4) is an error from the
// op's verifier, not inference run on an invalid op.
func.func @refined_operand_breaks_verifier(%x: tensor<1x2x3x4xf32>) -> tensor<*xf32> {
  %0 = graph.identity %x : (tensor<1x2x3x4xf32>) -> tensor<*xf32>
  // expected-error @+1 {{'perm' has 3 entries for an input of rank 4}}
  %1 = graph.transpose %0 {perm = array<i64: 0, 2, 1>} : (tensor<*xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Einsum's result follows from its equation (spaces and capital letters as
// torchvision's MaxViT writes them; an ellipsis; an implicit output).
// CHECK-LABEL: func.func @einsum_shapes
// CHECK: graph.einsum {{.+}} -> tensor<1x64x2x49x49xf32>
// CHECK: graph.einsum {{.+}} -> tensor<?x3x5xf32>
// CHECK: graph.einsum {{.+}} -> tensor<3x5x?xf32>
func.func @einsum_shapes(%q: tensor<1x64x2x49x32xf32>, %k: tensor<1x64x2x49x32xf32>, %a: tensor<?x3x4xf32>, %b: tensor<4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = graph.einsum %q, %k {equation = "B G H I D, B G H J D -> B G H I J"} : (tensor<1x64x2x49x32xf32>, tensor<1x64x2x49x32xf32>) -> tensor<*xf32>
  %1 = graph.einsum %a, %b {equation = "...ij,jk->...ik"} : (tensor<?x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  %2 = graph.einsum %b, %a {equation = "jk,nij"} : (tensor<4x5xf32>, tensor<?x3x4xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

func.func @einsum_bad_term(%a: tensor<3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{term 'ijk' does not match its operand's rank 2}}
  %0 = graph.einsum %a {equation = "ijk->i"} : (tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
