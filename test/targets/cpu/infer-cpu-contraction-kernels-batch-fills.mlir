// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 parallel=true})' | FileCheck %s

// Border fills adopted by a kernel that runs its channels in parallel: the
// fills of a padded input's top and bottom rows (across every channel)
// move into the parallel loop over channels, each iteration filling its
// own channel's rows before reading them (BatchFills.cpp). The views
// between (a memref.reshape of the padded buffer, as the lowering makes
// it) do not stop them.

#window = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>
#weights = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>
#out = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>

memref.global "private" constant @shape : memref<5xi64> = dense<[1, 4, 1, 18, 18]>

// CHECK-LABEL: func.func @adopted
// CHECK-SAME: (%[[P:.+]]: memref<1x4x18x18xf32>,
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel (%[[G:.+]]) =
// CHECK-NEXT: %[[TOP:.+]] = memref.subview %[[P]][0, %[[G]], 0, 0] [1, 1, 1, 18] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[TOP]] :
// CHECK-NEXT: %[[BOTTOM:.+]] = memref.subview %[[P]][0, %[[G]], 17, 0] [1, 1, 1, 18] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[BOTTOM]] :
// CHECK: vector.fma
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @adopted(%p: memref<1x4x18x18xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %top = memref.subview %p[0, 0, 0, 0] [1, 4, 1, 18] [1, 1, 1, 1] : memref<1x4x18x18xf32> to memref<1x4x1x18xf32, strided<[1296, 324, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x4x1x18xf32, strided<[1296, 324, 18, 1]>>)
  %bottom = memref.subview %p[0, 0, 17, 0] [1, 4, 1, 18] [1, 1, 1, 1] : memref<1x4x18x18xf32> to memref<1x4x1x18xf32, strided<[1296, 324, 18, 1], offset: 306>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x4x1x18xf32, strided<[1296, 324, 18, 1], offset: 306>>)
  %shape = memref.get_global @shape : memref<5xi64>
  %x = memref.reshape %p(%shape) : (memref<1x4x18x18xf32>, memref<5xi64>) -> memref<1x4x1x18x18xf32>
  linalg.generic {indexing_maps = [#window, #weights, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x18x18xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x16x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#window = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>
#weights = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>
#out = affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>

// Left where they are: a fill of some channels only, and a fill with a
// store into the buffer between it and the kernel (moving it later would
// overwrite the store).
// CHECK-LABEL: func.func @kept
// CHECK: linalg.fill
// CHECK: scf.parallel
// CHECK-NOT: linalg.fill
// CHECK-LABEL: func.func @kept_past_store
// CHECK: linalg.fill
// CHECK: memref.store
// CHECK: scf.parallel
// CHECK-NOT: linalg.fill
func.func @kept(%p: memref<1x4x18x18xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %top = memref.subview %p[0, 0, 0, 0] [1, 2, 1, 18] [1, 1, 1, 1] : memref<1x4x18x18xf32> to memref<1x2x1x18xf32, strided<[1296, 324, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x2x1x18xf32, strided<[1296, 324, 18, 1]>>)
  %x = memref.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 18, 18] : memref<1x4x18x18xf32> into memref<1x4x1x18x18xf32>
  linalg.generic {indexing_maps = [#window, #weights, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x18x18xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x16x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @kept_past_store(%p: memref<1x4x18x18xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %top = memref.subview %p[0, 0, 0, 0] [1, 4, 1, 18] [1, 1, 1, 1] : memref<1x4x18x18xf32> to memref<1x4x1x18xf32, strided<[1296, 324, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x4x1x18xf32, strided<[1296, 324, 18, 1]>>)
  memref.store %one, %p[%c0, %c0, %c0, %c0] : memref<1x4x18x18xf32>
  %x = memref.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 18, 18] : memref<1x4x18x18xf32> into memref<1x4x1x18x18xf32>
  linalg.generic {indexing_maps = [#window, #weights, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x18x18xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x16x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
