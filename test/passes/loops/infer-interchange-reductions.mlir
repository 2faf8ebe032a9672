// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-interchange-reductions))' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-interchange-reductions{innermost=reduction}))' | FileCheck %s --check-prefix=GPU

// A matmul (m, n, k) becomes a generic in (m, k, n) order: the innermost
// loop walks the columns of C, a different element every iteration.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// GPU-LABEL: func.func @matmul
// GPU: linalg.matmul
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// Already innermost-parallel (a pooling window outside the columns): kept;
// with innermost=reduction the window moves inside the columns.
// GPU-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 + d2)>
// GPU-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// GPU-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// GPU-LABEL: func.func @innermost_parallel
// GPU: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-LABEL: func.func @innermost_parallel
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
#in = affine_map<(d0, d1, d2) -> (d0, d1 + d2)>
#win = affine_map<(d0, d1, d2) -> (d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @innermost_parallel(%x: memref<4x10xf32>, %w: memref<3xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %w : memref<4x10xf32>, memref<3xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %unused: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full reduction has no parallel loop to move inwards.
// CHECK-LABEL: func.func @full_reduction
// CHECK: iterator_types = ["reduction"]
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @full_reduction(%x: memref<8xf32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<8xf32>) outs(%y : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
