// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{shape=x=4x3}))' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{batch=8}))' | FileCheck %s --check-prefix=BATCH
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{shape=y=4x3}))' 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{shape=x=4x3x2}))' 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{shape=x=4x5}))' 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{shape=x=4xq}))' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{profile=x=1x3:2x3:8x3}))' | FileCheck %s --check-prefix=RANGE
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-specialize-shapes{profile=x=5x3:5x3:5x3}))' | FileCheck %s --check-prefix=FIXED

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.+}}: tensor<4x3xf32> {graph.name = "x"}) -> tensor<4x3xf32>
// CHECK: graph.relu {{.+}} : (tensor<4x3xf32>) -> tensor<4x3xf32>
// BATCH: (%{{.+}}: tensor<8x3xf32> {graph.name = "x"}) -> tensor<8x3xf32>
// NAME: error: no input named 'y'; the inputs are: x
// RANK: error: input 'x' has rank 2 but the shape 4x3x2 has 3 dimensions
// STATIC: error: input 'x' has static dimension 1 = 3; the shape asks for 5
// SYNTAX: error: bad shape 'x=4xq': dimensions must be non-negative integers
// A profile's dims stay dynamic where MIN and MAX differ, and become static
// where they agree.
// RANGE: (%{{.+}}: tensor<?x3xf32> {graph.name = "x"}) -> tensor<?x3xf32>
// FIXED: (%{{.+}}: tensor<5x3xf32> {graph.name = "x"}) -> tensor<5x3xf32>
func.func @main(%x: tensor<?x3xf32> {graph.name = "x"}) -> tensor<?x3xf32> {
  %0 = graph.relu %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
