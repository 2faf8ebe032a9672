// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-fold-qdq))' | FileCheck %s

// DequantizeLinear -> Conv -> QuantizeLinear with per-channel weights and an
// i32 bias at scale x_scale * w_scale (0.5 * [0.25, 0.5]) folds into one
// QLinearConv over the quantized tensors, keeping the Conv's attributes.
// CHECK-LABEL: func.func @folded
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x4x4xui8>)
// CHECK-DAG: %[[XS:.+]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[XZ:.+]] = graph.constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[W:.+]] = graph.constant dense<1> : tensor<2x3x3x3xi8>
// CHECK-DAG: %[[WS:.+]] = graph.constant dense<[2.500000e-01, 5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: %[[WZ:.+]] = graph.constant dense<0> : tensor<2xi8>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<[7, -7]> : tensor<2xi32>
// CHECK-DAG: %[[YS:.+]] = graph.constant dense<2.000000e-01> : tensor<f32>
// CHECK-DAG: %[[YZ:.+]] = graph.constant dense<3> : tensor<ui8>
// CHECK-NOT: graph.conv
// CHECK: %[[Y:.+]] = graph.q_linear_conv %[[X]], %[[XS]], %[[XZ]], %[[W]], %[[WS]], %[[WZ]], %[[YS]], %[[YZ]], %[[B]] {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
// CHECK-SAME: -> tensor<1x2x4x4xui8>
// CHECK-NOT: graph.quantize_linear
// CHECK: return %[[Y]]
func.func @folded(%x: tensor<1x3x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %wz = graph.constant dense<0> : tensor<2xi8>
  %b = graph.constant dense<[7, -7]> : tensor<2xi32>
  %bs = graph.constant dense<[0.125, 0.25]> : tensor<2xf32>
  %bz = graph.constant dense<0> : tensor<2xi32>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %dw = graph.dequantize_linear %w, %ws, %wz {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %db = graph.dequantize_linear %b, %bs, %bz {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %c = graph.conv %dx, %dw, %db {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.quantize_linear %c, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// Without a bias, and with weights quantized per tensor and no zero point:
// QLinearConv gets a zero point of 0 and no bias.
// CHECK-LABEL: func.func @no_bias
// CHECK-DAG: %[[Z:.+]] = graph.constant dense<0> : tensor<i8>
// CHECK-DAG: %[[NONE:.+]] = graph.none
// CHECK: graph.q_linear_conv %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[Z]], %{{.+}}, %{{.+}}, %[[NONE]] {kernel_shape = array<i64: 3, 3>}
func.func @no_bias(%x: tensor<1x3x4x4xui8>) -> tensor<1x2x2x2xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<0.25> : tensor<f32>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %none = graph.none
  %dw = graph.dequantize_linear %w, %ws, %none : (tensor<2x3x3x3xi8>, tensor<f32>, none) -> tensor<2x3x3x3xf32>
  %c = graph.conv %dx, %dw, %none {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x2x2xf32>
  %y = graph.quantize_linear %c, %ys, %yz : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}

// -----

// Left in float: a bias whose scale is not x_scale * w_scale (folding would
// change the result), and a Conv whose float result has another user.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: graph.q_linear_conv
// CHECK: graph.conv
// CHECK: graph.quantize_linear
// CHECK: graph.conv
// CHECK: graph.quantize_linear
// CHECK-NOT: graph.q_linear_conv
func.func @kept(%x: tensor<1x3x4x4xui8>) -> (tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>, tensor<1x2x4x4xf32>) {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<[0.25, 0.5]> : tensor<2xf32>
  %b = graph.constant dense<[7, -7]> : tensor<2xi32>
  %bs = graph.constant dense<[0.125, 0.3]> : tensor<2xf32>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %none = graph.none
  %dw = graph.dequantize_linear %w, %ws, %none {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, none) -> tensor<2x3x3x3xf32>
  %db = graph.dequantize_linear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %c = graph.conv %dx, %dw, %db {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.quantize_linear %c, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  %c2 = graph.conv %dx, %dw, %none {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x4x4xf32>
  %y2 = graph.quantize_linear %c2, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y, %y2, %c2 : tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>, tensor<1x2x4x4xf32>
}

// -----

// A DequantizeLinear of constants no integer op took (a float Gemm's
// weights) becomes an f32 constant, (x - zp) * scale per axis 0:
// [(1 - 1) * 0.5, (3 - 1) * 0.5, (-2 - 2) * 0.25, (6 - 2) * 0.25].
// CHECK-LABEL: func.func @dequantized_weights
// CHECK: %[[W:.+]] = graph.constant dense<{{\[}}[0.000000e+00, 1.000000e+00], [-1.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: graph.dequantize_linear
// CHECK: graph.mat_mul %{{.+}}, %[[W]]
func.func @dequantized_weights(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = graph.constant dense<[[1, 3], [-2, 6]]> : tensor<2x2xi8>
  %s = graph.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %z = graph.constant dense<[1, 2]> : tensor<2xi8>
  %dw = graph.dequantize_linear %w, %s, %z {axis = 0 : i64} : (tensor<2x2xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2xf32>
  %y = graph.mat_mul %x, %dw : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// QuantizeLinear(MaxPool(DequantizeLinear(x))) with the same scale and zero
// point on both sides: MaxPool on the u8 values. With another output scale
// the pool stays in float.
// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x4x4xui8>)
// CHECK: %[[Y:.+]], %{{.+}} = graph.max_pool %[[X]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>) -> (tensor<1x2x2x2xui8>, none)
// CHECK: %[[D:.+]] = graph.dequantize_linear %[[X]]
// CHECK: graph.max_pool %[[D]]
// CHECK: graph.quantize_linear
// CHECK: return %[[Y]]
func.func @max_pool(%x: tensor<1x2x4x4xui8>) -> (tensor<1x2x2x2xui8>, tensor<1x2x2x2xui8>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<7> : tensor<ui8>
  %s2 = graph.constant dense<0.25> : tensor<f32>
  %d = graph.dequantize_linear %x, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %p, %i = graph.max_pool %d {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, none)
  %q = graph.quantize_linear %p, %s, %z : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  %d2 = graph.dequantize_linear %x, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %p2, %i2 = graph.max_pool %d2 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, none)
  %q2 = graph.quantize_linear %p2, %s2, %z : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  return %q, %q2 : tensor<1x2x2x2xui8>, tensor<1x2x2x2xui8>
}

// -----

// f16 scales (opset 19) are left to the float path: QLinearConv's lowering
// takes f32 scales only.
// CHECK-LABEL: func.func @f16_scales
// CHECK-NOT: graph.q_linear_conv
// CHECK: graph.conv
func.func @f16_scales(%x: tensor<1x3x4x4xui8>) -> tensor<1x2x2x2xui8> {
  %xs = graph.constant dense<0.5> : tensor<f16>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<0.25> : tensor<f16>
  %ys = graph.constant dense<0.2> : tensor<f16>
  %yz = graph.constant dense<3> : tensor<ui8>
  %none = graph.none
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x3x4x4xui8>, tensor<f16>, tensor<ui8>) -> tensor<1x3x4x4xf16>
  %dw = graph.dequantize_linear %w, %ws, %none : (tensor<2x3x3x3xi8>, tensor<f16>, none) -> tensor<2x3x3x3xf16>
  %c = graph.conv %dx, %dw, %none {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x4x4xf16>, tensor<2x3x3x3xf16>, none) -> tensor<1x2x2x2xf16>
  %y = graph.quantize_linear %c, %ys, %yz : (tensor<1x2x2x2xf16>, tensor<f16>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}

// -----

// An elementwise chain over one u8 tensor ending in a QuantizeLinear
// becomes a Gather from its 256 results: round-half-even(0.5 x + 1),
// x = 0, 1, 2, 3, 4, 5... gives 1, 2, 2, 2, 3, 4 (1.5 and 2.5 round to
// even) up to 128 for x = 254 and 255. Where a value inside the chain has
// a user outside it, the chain stays.
// CHECK-LABEL: func.func @table
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xui8>)
// (256 bytes print in hex: 0x01 02 02 02 03 04 ... 7F 80 80 80.)
// CHECK: %[[T:.+]] = graph.constant dense<"0x01020202030404040506
// CHECK-SAME: 7F808080"> : tensor<256xui8>
// CHECK: %[[I:.+]] = graph.cast %[[X]] {to = i32} : (tensor<2x3xui8>) -> tensor<2x3xi32>
// CHECK: %[[Y:.+]] = graph.gather %[[T]], %[[I]] : (tensor<256xui8>, tensor<2x3xi32>) -> tensor<2x3xui8>
// CHECK: graph.dequantize_linear
// CHECK: graph.add
// CHECK: graph.quantize_linear
// CHECK: return %[[Y]]
func.func @table(%x: tensor<2x3xui8>) -> (tensor<2x3xui8>, tensor<2x3xui8>, tensor<2x3xf32>) {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<ui8>
  %one = graph.constant dense<1.0> : tensor<f32>
  %s1 = graph.constant dense<1.0> : tensor<f32>
  %d = graph.dequantize_linear %x, %s, %z : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %a = graph.add %d, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = graph.quantize_linear %r, %s1, %z : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %d2 = graph.dequantize_linear %x, %s, %z : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %a2 = graph.add %d2, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %q2 = graph.quantize_linear %a2, %s1, %z : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %q, %q2, %a2 : tensor<2x3xui8>, tensor<2x3xui8>, tensor<2x3xf32>
}

// -----

// A chain that divides by zero has a NaN among its 256 results (0 / 0):
// no table, the chain stays.
// CHECK-LABEL: func.func @no_table_for_nan
// CHECK-NOT: graph.gather
// CHECK: graph.div
// CHECK: graph.quantize_linear
func.func @no_table_for_nan(%x: tensor<2x3xui8>) -> tensor<2x3xui8> {
  %s = graph.constant dense<0.5> : tensor<f32>
  %z = graph.constant dense<0> : tensor<ui8>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %d = graph.dequantize_linear %x, %s, %z : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %q0 = graph.div %d, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r = graph.relu %q0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = graph.quantize_linear %r, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %q : tensor<2x3xui8>
}

// -----

// DequantizeLinear -> MatMul <- DequantizeLinear(constant B, per column)
// -> QuantizeLinear folds into one QLinearMatMul; A's DequantizeLinear
// without a zero point gets a 0 of its type.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<2x4xui8>)
// CHECK-DAG: %[[AS:.+]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[AZ:.+]] = graph.constant dense<0> : tensor<ui8>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<1> : tensor<4x3xi8>
// CHECK-DAG: %[[BS:.+]] = graph.constant dense<[2.500000e-01, 5.000000e-01, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[BZ:.+]] = graph.constant dense<0> : tensor<3xi8>
// CHECK-DAG: %[[YS:.+]] = graph.constant dense<2.000000e-01> : tensor<f32>
// CHECK-DAG: %[[YZ:.+]] = graph.constant dense<3> : tensor<ui8>
// CHECK-NOT: graph.mat_mul
// CHECK: %[[Y:.+]] = graph.q_linear_mat_mul %[[A]], %[[AS]], %[[AZ]], %[[B]], %[[BS]], %[[BZ]], %[[YS]], %[[YZ]]
// CHECK-SAME: -> tensor<2x3xui8>
// CHECK: return %[[Y]]
func.func @matmul(%a: tensor<2x4xui8>) -> tensor<2x3xui8> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %n = graph.none
  %b = graph.constant dense<1> : tensor<4x3xi8>
  %bs = graph.constant dense<[0.25, 0.5, 1.0]> : tensor<3xf32>
  %bz = graph.constant dense<0> : tensor<3xi8>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %da = graph.dequantize_linear %a, %as, %n : (tensor<2x4xui8>, tensor<f32>, none) -> tensor<2x4xf32>
  %db = graph.dequantize_linear %b, %bs, %bz {axis = 1 : i64} : (tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<4x3xf32>
  %m = graph.mat_mul %da, %db : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = graph.quantize_linear %m, %ys, %yz : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----

// B quantized along axis 0 (per row of K) is no QLinearMatMul: the MatMul
// stays float.
// CHECK-LABEL: func.func @matmul_per_row
// CHECK: graph.mat_mul
// CHECK-NOT: graph.q_linear_mat_mul
func.func @matmul_per_row(%a: tensor<2x4xui8>) -> tensor<2x3xui8> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %az = graph.constant dense<0> : tensor<ui8>
  %b = graph.constant dense<1> : tensor<4x3xi8>
  %bs = graph.constant dense<[0.25, 0.5, 1.0, 2.0]> : tensor<4xf32>
  %bz = graph.constant dense<0> : tensor<4xi8>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %da = graph.dequantize_linear %a, %as, %az : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xf32>
  %db = graph.dequantize_linear %b, %bs, %bz {axis = 0 : i64} : (tensor<4x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3xf32>
  %m = graph.mat_mul %da, %db : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = graph.quantize_linear %m, %ys, %yz : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----

// The same MatMul with a float result (no QuantizeLinear after it, as
// infer's quantizer writes a linear layer): MatMulInteger on the quantized
// operands, then acc * (a_scale * b_scale[n]) = acc * [0.125, 0.25, 0.5].
// CHECK-LABEL: func.func @matmul_float
// CHECK-SAME: (%[[A:.+]]: tensor<2x4xui8>)
// CHECK-DAG: %[[AZ:.+]] = graph.constant dense<0> : tensor<ui8>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<1> : tensor<4x3xi8>
// CHECK-DAG: %[[S:.+]] = graph.constant dense<[1.250000e-01, 2.500000e-01, 5.000000e-01]> : tensor<3xf32>
// CHECK: %[[I:.+]] = graph.mat_mul_integer %[[A]], %[[B]], %[[AZ]], %{{.+}} : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<2x3xi32>
// CHECK: %[[F:.+]] = graph.cast %[[I]] {to = f32}
// CHECK: %[[Y:.+]] = graph.mul %[[F]], %[[S]]
// CHECK-NOT: graph.mat_mul 
// CHECK: return %[[Y]]
func.func @matmul_float(%a: tensor<2x4xui8>) -> tensor<2x3xf32> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %n = graph.none
  %b = graph.constant dense<1> : tensor<4x3xi8>
  %bs = graph.constant dense<[0.25, 0.5, 1.0]> : tensor<3xf32>
  %bz = graph.constant dense<0> : tensor<3xi8>
  %da = graph.dequantize_linear %a, %as, %n : (tensor<2x4xui8>, tensor<f32>, none) -> tensor<2x4xf32>
  %db = graph.dequantize_linear %b, %bs, %bz {axis = 1 : i64} : (tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<4x3xf32>
  %m = graph.mat_mul %da, %db : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}

// -----

// A zero bias reached through Identity and dequantized at another layer's
// scale (torch shares one zero bias among layers; quantize_static then
// quantizes it at the first layer's scale): adding it adds nothing, so the
// Conv still folds, with no bias.
// CHECK-LABEL: func.func @zero_bias_through_identity
// CHECK-DAG: %[[NONE:.+]] = graph.none
// CHECK: graph.q_linear_conv %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[NONE]]
// CHECK-NOT: graph.conv
func.func @zero_bias_through_identity(%x: tensor<1x3x4x4xui8>) -> tensor<1x2x2x2xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<128> : tensor<ui8>
  %w = graph.constant dense<1> : tensor<2x3x3x3xi8>
  %ws = graph.constant dense<0.25> : tensor<f32>
  %b = graph.constant dense<0> : tensor<2xi32>
  %bs = graph.constant dense<[0.75, 0.5]> : tensor<2xf32>
  %ys = graph.constant dense<0.2> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %none = graph.none
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %dw = graph.dequantize_linear %w, %ws, %none : (tensor<2x3x3x3xi8>, tensor<f32>, none) -> tensor<2x3x3x3xf32>
  %db = graph.dequantize_linear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %shared = graph.identity %db : (tensor<2xf32>) -> tensor<2xf32>
  %c = graph.conv %dx, %dw, %shared {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y = graph.quantize_linear %c, %ys, %yz : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}

// -----

// DequantizeLinear -> GlobalAveragePool -> QuantizeLinear on integers: the
// exact i32 sum over the 2 x 2 window, less zx * 4 = 40, times
// x_scale / (y_scale * 4) = 0.5 / (0.25 * 4) = 0.5, requantized with zy.
// CHECK-LABEL: func.func @global_average_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x2x2xui8>)
// CHECK-DAG: %[[AXES:.+]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-DAG: %[[CORR:.+]] = graph.constant dense<40> : tensor<i32>
// CHECK-DAG: %[[MULT:.+]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[ONE:.+]] = graph.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[YZ:.+]] = graph.constant dense<3> : tensor<ui8>
// CHECK: %[[WIDE:.+]] = graph.cast %[[X]] {to = i32} : (tensor<1x2x2x2xui8>) -> tensor<1x2x2x2xi32>
// CHECK: %[[SUM:.+]] = graph.reduce_sum %[[WIDE]], %[[AXES]] : (tensor<1x2x2x2xi32>, tensor<2xi64>) -> tensor<1x2x1x1xi32>
// CHECK: %[[C:.+]] = graph.sub %[[SUM]], %[[CORR]]
// CHECK: %[[R:.+]] = graph.cast %[[C]] {to = f32}
// CHECK: %[[S:.+]] = graph.mul %[[R]], %[[MULT]]
// CHECK: %[[Y:.+]] = graph.quantize_linear %[[S]], %[[ONE]], %[[YZ]] : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
// CHECK-NOT: graph.global_average_pool
// CHECK: return %[[Y]]
func.func @global_average_pool(%x: tensor<1x2x2x2xui8>) -> tensor<1x2x1x1xui8> {
  %xs = graph.constant dense<0.5> : tensor<f32>
  %xz = graph.constant dense<10> : tensor<ui8>
  %ys = graph.constant dense<0.25> : tensor<f32>
  %yz = graph.constant dense<3> : tensor<ui8>
  %dx = graph.dequantize_linear %x, %xs, %xz : (tensor<1x2x2x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xf32>
  %p = graph.global_average_pool %dx : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  %y = graph.quantize_linear %p, %ys, %yz : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
  return %y : tensor<1x2x1x1xui8>
}

// -----

// DequantizeLinear -> Gemm (B transposed, per-channel along N, an i32 bias
// at a_scale * b_scale) -> QuantizeLinear: MatMulInteger over B as K x N,
// (transposed at compile time) plus the bias, times (a_scale * b_scale[n]) / y_scale = (0.5 * [0.5,
// 0.25, 0.5, 0.25]) / 0.25 = [1, 0.5, 1, 0.5], requantized.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xui8>)
// CHECK-DAG: %[[BT:.+]] = graph.constant dense<{{\[\[}}1, 4, 7, 10], [2, 5, 8, 11], [3, 6, 9, 12]]> : tensor<3x4xi8>
// CHECK-DAG: %[[BIAS:.+]] = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-DAG: %[[MULT:.+]] = graph.constant dense<[1.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>
// CHECK: %[[ACC:.+]] = graph.mat_mul_integer %[[A]], %[[BT]], %{{.+}}, %{{.+}} : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<2x4xi32>
// CHECK: %[[SUM:.+]] = graph.add %[[ACC]], %[[BIAS]]
// CHECK: %[[R:.+]] = graph.cast %[[SUM]] {to = f32}
// CHECK: %[[S:.+]] = graph.mul %[[R]], %[[MULT]]
// CHECK: %[[Y:.+]] = graph.quantize_linear %[[S]]
// CHECK-NOT: graph.gemm
// CHECK: return %[[Y]]
func.func @gemm(%a: tensor<2x3xui8>) -> tensor<2x4xui8> {
  %as = graph.constant dense<0.5> : tensor<f32>
  %az = graph.constant dense<7> : tensor<ui8>
  %b = graph.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]> : tensor<4x3xi8>
  %bs = graph.constant dense<[0.5, 0.25, 0.5, 0.25]> : tensor<4xf32>
  %bz = graph.constant dense<0> : tensor<4xi8>
  %c = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %cs = graph.constant dense<[0.25, 0.125, 0.25, 0.125]> : tensor<4xf32>
  %ys = graph.constant dense<0.25> : tensor<f32>
  %yz = graph.constant dense<0> : tensor<ui8>
  %none = graph.none
  %da = graph.dequantize_linear %a, %as, %az : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %db = graph.dequantize_linear %b, %bs, %bz {axis = 0 : i64} : (tensor<4x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3xf32>
  %dc = graph.dequantize_linear %c, %cs, %none {axis = 0 : i64} : (tensor<4xi32>, tensor<4xf32>, none) -> tensor<4xf32>
  %g = graph.gemm %da, %db, %dc {transB = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %y = graph.quantize_linear %g, %ys, %yz : (tensor<2x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return %y : tensor<2x4xui8>
}
