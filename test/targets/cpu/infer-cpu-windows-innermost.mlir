// RUN: infer-opt %s --split-input-file --infer-cpu-windows-innermost | FileCheck %s

// A 3x3 stride-2 max pool as the lowering emits it, the window (kh, kw)
// before the output (oh, ow): the window dims move after the output dims.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maximumf
func.func @max_pool(%x: memref<1x4x9x9xf32>, %w: memref<3x3xf32>, %y: memref<1x4x4x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%y : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A reduction already innermost (a row sum) is left alone.
// CHECK-LABEL: func.func @row_sum
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @row_sum(%x: memref<8x16xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A window of more than max-window (64) iterations stays outermost: its
// taps would not be unrolled.
// CHECK-LABEL: func.func @wide_window
// CHECK: iterator_types = ["parallel", "reduction", "reduction", "parallel"]
func.func @wide_window(%x: memref<4x9x9x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>],
                  iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : memref<4x9x9x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
