// RUN: infer-opt %s --pass-pipeline='builtin.module(infer-prepare-entry{name=m target=cpu profile=x=1x4:2x4:8x4})' | FileCheck %s
// RUN: infer-opt %s --pass-pipeline='builtin.module(graph-opt{batch=3},infer-prepare-entry{name=net target=hls})' | FileCheck %s --check-prefix=HLS
// RUN: not infer-opt %s --pass-pipeline='builtin.module(infer-prepare-entry{name=net target=hls})' 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not infer-opt %s --pass-pipeline='builtin.module(infer-prepare-entry{name=1m target=cpu})' 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not infer-opt %s --pass-pipeline='builtin.module(infer-prepare-entry{name=m target=tpu})' 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not infer-opt %s --pass-pipeline='builtin.module(infer-prepare-entry{name=m target=cpu profile=x=1x4:9x4:8x4})' 2>&1 | FileCheck %s --check-prefix=PROFILE

// The CPU keeps the dynamic batch; the profile is recorded with the
// signature (dtype 1 float32, 7 int64), and the module marked for the fuse
// phase (elementwise ops not fused into pooling windows, Target.h). @main
// becomes <name>_main and the graph-level attributes go.
// CHECK: module attributes {infer.signature = {inputs = [{dtype = 1 : i32, max = array<i64: 8, 4>, min = array<i64: 1, 4>, name = "x", opt = array<i64: 2, 4>, shape = array<i64: -1, 4>}, {dtype = 7 : i32, name = "k", shape = array<i64: 2>}], name = "m", outputs = [{dtype = 1 : i32, max = array<i64: 9223372036854775807, 4>, min = array<i64: 1, 4>, name = "y", opt = array<i64: 1, 4>, shape = array<i64: -1, 4>}]}, infer.windows_apart} {
// CHECK-NEXT: func.func @m_main(%{{.*}}: tensor<?x4xf32>, %{{.*}}: tensor<2xi64>) -> tensor<?x4xf32>

// HLS names its top function after the model, and needs static shapes.
// HLS: module attributes {infer.signature = {inputs = [{dtype = 1 : i32, name = "x", shape = array<i64: 3, 4>}, {dtype = 7 : i32, name = "k", shape = array<i64: 2>}], name = "net", outputs = [{dtype = 1 : i32, name = "y", shape = array<i64: 3, 4>}]}} {
// HLS-NEXT: func.func @net(%{{.*}}: tensor<3x4xf32>, %{{.*}}: tensor<2xi64>) -> tensor<3x4xf32>
// STATIC: error: input 'x' has a dynamic shape 'tensor<?x4xf32>'; the HLS target needs static shapes: pass --shape x=... or --batch N

// NAME: error: --name '1m' is not a C identifier (letters, digits, '_')
// TARGET: error: unknown target 'tpu' (this build has: cpu
// PROFILE: error: --shape-profile 'x=1x4:9x4:8x4': dim 0 needs MIN <= OPT <= MAX
module attributes {graph.model_name = "m", graph.opset = 17 : i64} {
  func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}, %k: tensor<2xi64> {graph.name = "k"}) -> (tensor<?x4xf32> {graph.name = "y"}) {
    return %x : tensor<?x4xf32>
  }
}
