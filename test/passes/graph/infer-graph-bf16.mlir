// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bf16))' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bf16{exclude=fc}))' | FileCheck %s --check-prefix=EXCLUDE
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bf16{exclude=nosuch}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// An ungrouped Conv, a MatMul by a constant matrix and a Gemm (A not
// transposed) by a constant B are marked; a depthwise Conv, a MatMul of
// two activations and a Gemm with A transposed are not.
// CHECK-LABEL: func.func @marks
// CHECK: graph.conv %{{.+}}, %{{.+}}, %{{.+}} {infer.precision = "bf16", pads
// CHECK: graph.conv %{{.+}}, %{{.+}}, %{{.+}} {group = 4 : i64}
// CHECK: graph.mat_mul %{{.+}}, %{{.+}} {infer.precision = "bf16"} : (tensor<2x8xf32>, tensor<8x4xf32>)
// CHECK: graph.mat_mul %{{.+}}, %{{.+}} : (tensor<2x8xf32>, tensor<8x2xf32>)
// CHECK: graph.gemm %{{.+}}, %{{.+}}, %{{.+}} {infer.precision = "bf16", transB = 1 : i64}
// CHECK: graph.gemm %{{.+}}, %{{.+}}, %{{.+}} {transA = 1 : i64}
// The node named in `exclude` is left as it is.
// EXCLUDE-LABEL: func.func @marks
// EXCLUDE: graph.conv %{{.+}}, %{{.+}}, %{{.+}} {infer.precision = "bf16", pads
// EXCLUDE: graph.mat_mul %{{[^ ]+}}, %{{[^ ]+}} : (tensor<2x8xf32>, tensor<8x4xf32>)
// EXCLUDE: graph.gemm %{{.+}}, %{{.+}}, %{{.+}} {infer.precision = "bf16", transB = 1 : i64}
// UNKNOWN: error: no Conv, MatMul or Gemm node named 'nosuch' to keep in f32 (--precision-exclude)
func.func @marks(%x: tensor<1x4x8x8xf32>, %m: tensor<2x8xf32>, %n: tensor<8x2xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<4xf32>
  %c = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("conv")
  %dw = graph.constant dense<0.5> : tensor<4x1x1x1xf32>
  %none = graph.none
  %d = graph.conv %x, %dw, %none {group = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x1x1xf32>, none) -> tensor<1x4x8x8xf32> loc("depthwise")
  %k = graph.constant dense<1.5> : tensor<8x4xf32>
  %f = graph.mat_mul %m, %k : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32> loc("fc")
  %g = graph.mat_mul %m, %n : (tensor<2x8xf32>, tensor<8x2xf32>) -> tensor<2x2xf32> loc("scores")
  %kt = graph.constant dense<1.5> : tensor<4x8xf32>
  %h = graph.gemm %m, %kt, %none {transB = 1 : i64} : (tensor<2x8xf32>, tensor<4x8xf32>, none) -> tensor<2x4xf32> loc("head")
  %at = graph.constant dense<1.5> : tensor<8x2xf32>
  %i = graph.gemm %at, %k, %none {transA = 1 : i64} : (tensor<8x2xf32>, tensor<8x4xf32>, none) -> tensor<2x4xf32> loc("transposed")
  return %c, %d, %f, %g, %h, %i : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
