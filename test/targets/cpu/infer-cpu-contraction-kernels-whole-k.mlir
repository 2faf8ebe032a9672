// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// A 3x3 convolution with few filters over a large plane (PP-OCRv4 det's
// 96 -> 24 heads at 160 x 160): A (24 x 864 floats, 81 KiB) fits in L2,
// C (24 x 25600, 2.4 MiB) does not. The reduction runs over all of
// K = 864 in one block (k-blocks of 256 sent C's partial sums out to L3
// and back three times). Its input is read in place (three row tiles),
// each row a channel's plane apart: every step prefetches the row 16
// steps ahead (its offset from the k table, whose last entry repeats 16
// times: no clamp) at the panel's first and last columns.
// CHECK-LABEL: func.func @few_filters
// CHECK: %[[TABLE:.+]] = memref.get_global @__infer_k_offsets : memref<880xi32>
// CHECK: %[[X:.+]] = memref.reinterpret_cast %arg1
// CHECK: scf.for %[[N0:.+]] = %c0 to %c25600 step %c32
// CHECK: scf.for %{{.+}} = %c0 to %c24 step %c8
// CHECK-NOT: scf.for
// CHECK: scf.for %[[K:.+]] = %c0 to %c864 step %c4
// CHECK: %[[AHEAD:.+]] = arith.addi %[[K]], %c16
// CHECK-NOT: arith.minui
// CHECK: memref.load %[[TABLE]][%[[AHEAD]]] : memref<880xi32>
// CHECK: memref.prefetch %[[X]][%{{.+}}], read, locality<3>, data
// CHECK: arith.addi %[[N0]], %c31
// CHECK: memref.prefetch %[[X]][%{{.+}}], read, locality<3>, data
// CHECK: vector.fma
func.func @few_filters(%w: memref<24x96x3x3xf32>, %x: memref<96x162x162xf32>, %y: memref<24x160x160xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<24x96x3x3xf32>, memref<96x162x162xf32>) outs(%y : memref<24x160x160xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 96 filters: A is 324 KiB and C 9.4 MiB. A's k-blocks would not stay
// in L2 beside the rest either, so one block of all of K too (the layer
// alone with --winograd=false: 41.2 -> 41.0 ms; a 1x1 512 -> 512 layer
// at 56 x 56, K = 512: 16.6 -> 15.1 ms; AMD EPYC Zen 4, 1 thread).
// CHECK-LABEL: func.func @many_filters
// CHECK-NOT: step %c256
// CHECK: scf.for %{{.+}} = %c0 to %c96 step %c8
// CHECK: scf.for %{{.+}} = %c0 to %c864 step %c4
func.func @many_filters(%w: memref<96x96x3x3xf32>, %x: memref<96x162x162xf32>, %y: memref<96x160x160xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<96x96x3x3xf32>, memref<96x162x162xf32>) outs(%y : memref<96x160x160xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A small plane (C of 24 x 784 floats, 74 KiB) stays in L2 between
// blocks: k-blocks of 256; and rows under 4 KiB apart are left to the
// hardware prefetchers.
// CHECK-LABEL: func.func @small_plane
// CHECK: scf.for %{{.+}} = %c0 to %c864 step %c256
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @small_plane(%w: memref<24x96x3x3xf32>, %x: memref<96x30x30xf32>, %y: memref<24x28x28xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<24x96x3x3xf32>, memref<96x30x30xf32>) outs(%y : memref<24x28x28xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product whose B (1280 x 1000 floats, 5 MiB) streams
// from memory (a classifier's weights): each element of B is read once
// whatever the blocks, so one block of all of K, past the 1024-row bound
// (k-blocks of 256 stored C between blocks and switched B's stream from
// panel to panel: mobilenet_v2's classifier 0.28-0.35 -> 0.20 ms).
// CHECK-LABEL: func.func @streamed_gemv
// CHECK-NOT: step %c256
// CHECK: scf.for %{{.+}} = %c0 to %c960 step %c64
// CHECK-NEXT: vector.load
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c1280 step %c1
// CHECK: vector.fma
func.func @streamed_gemv(%x: memref<1x1280xf32>, %w: memref<1280x1000xf32>, %y: memref<1x1000xf32>) {
  linalg.matmul ins(%x, %w : memref<1x1280xf32>, memref<1280x1000xf32>) outs(%y : memref<1x1000xf32>)
  return
}

// -----

// The same product with a B that stays in cache (1280 x 64 floats,
// 320 KiB): k-blocks of 256.
// CHECK-LABEL: func.func @cached_gemv
// CHECK: scf.for %{{.+}} = %c0 to %c1280 step %c256
// CHECK: vector.fma
func.func @cached_gemv(%x: memref<1x1280xf32>, %w: memref<1280x64xf32>, %y: memref<1x64xf32>) {
  linalg.matmul ins(%x, %w : memref<1x1280xf32>, memref<1280x64xf32>) outs(%y : memref<1x64xf32>)
  return
}
