// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 parallel=true runtime-threads=true},canonicalize)' | FileCheck %s

// An expanding 1x1 convolution (M = 128 rows of C, K = 16, B of 64 KB)
// whose output a depthwise convolution reads, its channels (C's rows)
// split across the threads: the threads take ranges of C's rows too,
// rather than groups of its 32 column panels, so each depthwise thread
// reads the channels its own core wrote.
// CHECK-LABEL: func.func @expand_then_depthwise
// CHECK: %[[THREADS:.+]] = call @__infer_num_threads()
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c128) step
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c128) step (%c1)
func.func @expand_then_depthwise(%w: memref<128x16xf32>, %x: memref<16x1024xf32>, %dw: memref<128x1x1x3x3xf32>, %y: memref<1x128x1x30x30xf32>) {
  %t = memref.alloc() : memref<128x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<128x16xf32>, memref<16x1024xf32>) outs(%t : memref<128x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %v = memref.expand_shape %t [[0, 1, 2], [3, 4]] output_shape [1, 128, 1, 32, 32] : memref<128x1024xf32> into memref<1x128x1x32x32xf32>
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%v, %dw : memref<1x128x1x32x32xf32>, memref<128x1x1x3x3xf32>) outs(%y : memref<1x128x1x30x30xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<128x1024xf32>
  return
}

// -----

// The same with K = 32 (B of 128 KB, as mobilenet_v2's 32 -> 192
// expansion at 28x28): every thread would read and pack all of B, which
// cost more than the depthwise layer's local reads gained (Zen 4, 2
// threads), so groups of column panels.
// CHECK-LABEL: func.func @wide_input_then_depthwise
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c1024) step
func.func @wide_input_then_depthwise(%w: memref<128x32xf32>, %x: memref<32x1024xf32>, %dw: memref<128x1x1x3x3xf32>, %y: memref<1x128x1x30x30xf32>) {
  %t = memref.alloc() : memref<128x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<128x32xf32>, memref<32x1024xf32>) outs(%t : memref<128x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %v = memref.expand_shape %t [[0, 1, 2], [3, 4]] output_shape [1, 128, 1, 32, 32] : memref<128x1024xf32> into memref<1x128x1x32x32xf32>
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%v, %dw : memref<1x128x1x32x32xf32>, memref<128x1x1x3x3xf32>) outs(%y : memref<1x128x1x30x30xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<128x1024xf32>
  return
}

// -----

// The same product read by a matmul over all of its rows: groups of
// column panels, as before.
// CHECK-LABEL: func.func @expand_then_matmul
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c1024) step
func.func @expand_then_matmul(%w: memref<128x16xf32>, %x: memref<16x1024xf32>, %w2: memref<64x128xf32>, %z: memref<64x1024xf32>) {
  %t = memref.alloc() : memref<128x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<128x16xf32>, memref<16x1024xf32>) outs(%t : memref<128x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w2, %t : memref<64x128xf32>, memref<128x1024xf32>) outs(%z : memref<64x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<128x1024xf32>
  return
}
