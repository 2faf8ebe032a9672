// RUN: infer-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(infer-graph-quantize))' | FileCheck %s

// Two marked convolutions in a chain. The first one's input range [0, 2.55]
// gives u8 scale 0.01 and zero point 0; its weights 0.5 and -1.27 get the
// per-channel scales 0.5/127 and 1.27/127 = 0.01 and the values 127, -127;
// its bias 0.001 and -0.002 at x_scale * w_scale (3.937e-5, 1e-4) is 25 and
// -20. Its output range [0, 5.1] (scale 0.02, zero point 0) makes the Relu
// redundant: it is gone, and the second Conv reads the same
// DequantizeLinear. The second output's range [-1, 3] has scale 4/255 and
// zero point round(1 / (4/255)) = 64.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x2x2xf32>)
// CHECK: %[[XS:.+]] = graph.constant dense<0.00999999977> : tensor<f32>
// CHECK: %[[XZ:.+]] = graph.constant dense<0> : tensor<ui8>
// CHECK: %[[XQ:.+]] = graph.quantize_linear %[[X]], %[[XS]], %[[XZ]]
// CHECK: %[[DX:.+]] = graph.dequantize_linear %[[XQ]], %[[XS]], %[[XZ]]
// CHECK: %[[WS:.+]] = graph.constant dense<[0.00393700786, 0.00999999977]> : tensor<2xf32>
// CHECK: %[[WQ:.+]] = graph.constant dense<{{\[\[\[\[}}127]]], {{\[\[\[}}-127]]]]> : tensor<2x1x1x1xi8>
// CHECK: %[[DW:.+]] = graph.dequantize_linear %[[WQ]], %[[WS]], %{{.+}} {axis = 0 : i64}
// CHECK: %[[BS:.+]] = graph.constant dense<[3.93700793E-5, 9.99999974E-5]> : tensor<2xf32>
// CHECK: %[[BQ:.+]] = graph.constant dense<[25, -20]> : tensor<2xi32>
// CHECK: %[[DB:.+]] = graph.dequantize_linear %[[BQ]], %[[BS]], %{{.+}} {axis = 0 : i64}
// CHECK: %[[C:.+]] = graph.conv %[[DX]], %[[DW]], %[[DB]] :
// CHECK: %[[YS:.+]] = graph.constant dense<2.000000e-02> : tensor<f32>
// CHECK: %[[YZ:.+]] = graph.constant dense<0> : tensor<ui8>
// CHECK: %[[YQ:.+]] = graph.quantize_linear %[[C]], %[[YS]], %[[YZ]]
// CHECK: %[[DY:.+]] = graph.dequantize_linear %[[YQ]], %[[YS]], %[[YZ]] {infer.quantized_output = 0 : i64}
// CHECK-NOT: graph.relu
// CHECK: %[[W2:.+]] = graph.constant dense<127> : tensor<2x2x1x1xi8>
// CHECK: %[[DW2:.+]] = graph.dequantize_linear %[[W2]]
// CHECK: %[[C2:.+]] = graph.conv %[[DY]], %[[DW2]], %{{.+}} :
// CHECK: %[[S2:.+]] = graph.constant dense<0.0156862754> : tensor<f32>
// CHECK: %[[Z2:.+]] = graph.constant dense<64> : tensor<ui8>
// CHECK: %[[Q2:.+]] = graph.quantize_linear %[[C2]], %[[S2]], %[[Z2]]
// CHECK: %[[D2:.+]] = graph.dequantize_linear %[[Q2]], %[[S2]], %[[Z2]] {infer.quantized_output = 1 : i64}
// CHECK: return %[[D2]], %[[DY]]
func.func @chain(%x: tensor<1x1x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = graph.constant dense<[[[[0.5]]], [[[-1.27]]]]> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[0.001, -0.002]> : tensor<2xf32>
  %c = graph.conv %x, %w, %b {infer.quantize = {id = 0 : i64, input = array<f64: 0.0, 2.55>, output = array<f64: 0.0, 5.1>}} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %r = graph.relu %c : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %w2 = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %n = graph.none
  %c2 = graph.conv %r, %w2, %n {infer.quantize = {id = 1 : i64, input = array<f64: 0.0, 5.1>, output = array<f64: -1.0, 3.0>}} : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>, none) -> tensor<1x2x2x2xf32>
  return %c2, %r : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

// A Clip whose min is not 0 is no u8 saturation: the Conv's own result is
// quantized, and the Clip reads the DequantizeLinear.
// CHECK-LABEL: func.func @kept_clip
// CHECK: %[[C:.+]] = graph.conv
// CHECK: %[[Q:.+]] = graph.quantize_linear %[[C]]
// CHECK: %[[D:.+]] = graph.dequantize_linear %[[Q]]
// CHECK: graph.clip %[[D]]
func.func @kept_clip(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %n = graph.none
  %lo = graph.constant dense<-1.0> : tensor<f32>
  %hi = graph.constant dense<1.0> : tensor<f32>
  %c = graph.conv %x, %w, %n {infer.quantize = {id = 0 : i64, input = array<f64: -1.0, 1.0>, output = array<f64: -1.0, 1.0>}} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, none) -> tensor<1x1x2x2xf32>
  %k = graph.clip %c, %lo, %hi : (tensor<1x1x2x2xf32>, tensor<f32>, tensor<f32>) -> tensor<1x1x2x2xf32>
  return %k : tensor<1x1x2x2xf32>
}

// -----

// A Relu stays when the output range (as marked) has negatives: the zero
// point is then not 0, and the Relu's result is what gets quantized.
// CHECK-LABEL: func.func @kept_relu
// CHECK: %[[C:.+]] = graph.conv
// CHECK: %[[R:.+]] = graph.relu %[[C]]
// CHECK: %[[Z:.+]] = graph.constant dense<64> : tensor<ui8>
// CHECK: graph.quantize_linear %[[R]], %{{.+}}, %[[Z]]
func.func @kept_relu(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %n = graph.none
  %c = graph.conv %x, %w, %n {infer.quantize = {id = 0 : i64, input = array<f64: 0.0, 1.0>, output = array<f64: -1.0, 3.0>}} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, none) -> tensor<1x1x2x2xf32>
  %r = graph.relu %c : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %r : tensor<1x1x2x2xf32>
}

// -----

// A depthwise convolution has no int8 kernel: it stays float, and says so.
// CHECK-LABEL: func.func @grouped
// CHECK-NOT: graph.quantize_linear
// CHECK: graph.conv
// CHECK-NOT: infer.quantize
func.func @grouped(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %n = graph.none
  // expected-warning @+1 {{marked for int8 but stays float: grouped or depthwise (no int8 kernel)}}
  %c = graph.conv %x, %w, %n {group = 2 : i64, infer.quantize = {id = 0 : i64, input = array<f64: 0.0, 1.0>, output = array<f64: 0.0, 1.0>}} : (tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32>, none) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

// -----

func.func @malformed(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %n = graph.none
  // expected-error @+1 {{malformed infer.quantize mark}}
  %c = graph.conv %x, %w, %n {infer.quantize = {id = 0 : i64, input = array<f64: 0.0>, output = array<f64: 0.0, 1.0>}} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, none) -> tensor<1x1x2x2xf32>
  return %c : tensor<1x1x2x2xf32>
}

// -----

// A MatMul by a constant matrix: its input quantized per tensor, B per
// column (axis 1, the default: scales max|column| / 127 = [2/127, 1/127]), and its
// result left float, marked as the layer's output.
// CHECK-LABEL: func.func @linear
// CHECK: %[[XQ:.+]] = graph.quantize_linear %{{.+}}
// CHECK: %[[DX:.+]] = graph.dequantize_linear %[[XQ]]
// CHECK: %[[WS:.+]] = graph.constant dense<[0.0157480314, 0.00787401571]> : tensor<2xf32>
// CHECK: %[[WQ:.+]] = graph.constant dense<{{\[}}[127, 64], [-64, -127], [0, 127]]> : tensor<3x2xi8>
// CHECK: %[[DW:.+]] = graph.dequantize_linear %[[WQ]], %[[WS]], %{{[^ ]+}} :
// CHECK: %[[Y:.+]] = graph.mat_mul %[[DX]], %[[DW]] {infer.quantized_output = 7 : i64}
// CHECK-NOT: graph.quantize_linear
// CHECK: return %[[Y]]
func.func @linear(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = graph.constant dense<[[2.0, 0.5], [-1.0, -1.0], [0.0, 1.0]]> : tensor<3x2xf32>
  %y = graph.mat_mul %x, %w {infer.quantize = {id = 7 : i64, input = array<f64: -1.0, 1.0>, output = array<f64: -3.0, 3.0>}} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
