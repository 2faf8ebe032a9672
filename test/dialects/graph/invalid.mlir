// Verifier messages a user can act on.
// RUN: infer-opt %s --split-input-file --verify-diagnostics

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = graph.none
  // expected-error @+1 {{input has 3 channels but the weight expects 2 x group 1}}
  %0 = graph.conv %x, %w, %none : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = graph.none
  // expected-error @+1 {{attribute 'pads' has 2 values, expected 4}}
  %0 = graph.conv %x, %w, %none {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @matmul_k(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{contraction dimensions differ: 3 vs 4}}
  %0 = graph.mat_mul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'perm' is not a permutation of 0..1}}
  %0 = graph.transpose %x {perm = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis 2 is out of range for an input of rank 2}}
  %0 = graph.softmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concat_axis(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = graph.concat %a, %a {axis = 1 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_type(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{result element type 'i32' differs from `to` = 'i64'}}
  %0 = graph.cast %x {to = i64} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @auto_pad(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{attribute 'auto_pad' failed to satisfy constraint: string attribute, one of NOTSET, SAME_UPPER, SAME_LOWER, VALID}}
  %0 = graph.average_pool %x {auto_pad = "SAME", kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @pool_rank(%x: tensor<1x4x4xf32>) -> tensor<1x2x2xf32> {
  // expected-error @+1 {{input of rank 3 does not match a 2-d kernel (expected rank 4)}}
  %0, %1 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x4x4xf32>) -> (tensor<1x2x2xf32>, none)
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @if_results(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{branch yields 0 values, but the op has 1 results}}
  %0 = graph.if %c : (tensor<i1>) -> tensor<2xf32> then {
    graph.yield
  } else {
    graph.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @variadic_empty() -> tensor<2xf32> {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = graph.sum : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
