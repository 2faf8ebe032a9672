// RUN: infer-opt %s --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s
// RUN: infer-opt %s --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s --check-prefix=NODIV

// A depthwise convolution (C is [n, c, 1, oh, ow]) whose consumer adds a
// bias per channel and clips, over [n, c, oh, ow]: each output row's
// epilogue takes the channel and the row from the kernel's loops (C's
// leading dims, the unit one aside, are the consumer's), not by dividing
// the row's linear index (two divisions a row, the bias load left inside
// the row loop).
// CHECK-LABEL: func.func @depthwise_bias
// CHECK: scf.for %[[G:.+]] = %c0 to %c4 step %c1
// CHECK: scf.for %[[OH:.+]] = %c0 to %c16 step %c2
// CHECK-COUNT-18: vector.fma
// CHECK: %[[B:.+]] = memref.load %{{.+}}[%[[G]]] : memref<4xf32, strided<[1]>>
// CHECK-NEXT: vector.broadcast %[[B]]
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.muli %[[G]], %c256
// CHECK-NEXT: arith.muli %[[OH]], %c16
// CHECK: vector.store
// NODIV-NOT: arith.divui
// NODIV-NOT: arith.remui
memref.global "private" constant @c_shape : memref<4xi64> = dense<[1, 4, 16, 16]>
func.func @depthwise_bias(%x: memref<1x4x1x18x18xf32>, %w: memref<4x1x1x3x3xf32>, %bias: memref<4x1x1xf32>, %z: memref<1x4x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c_shape = memref.get_global @c_shape : memref<4xi64>
  %y = memref.alloc() : memref<1x4x1x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x1x16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x18x18xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x16x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %c = memref.reshape %y(%c_shape) : (memref<1x4x1x16x16xf32>, memref<4xi64>) -> memref<1x4x16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x4x16x16xf32>, memref<4x1x1xf32>) outs(%z : memref<1x4x16x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %y : memref<1x4x1x16x16xf32>
  return
}
