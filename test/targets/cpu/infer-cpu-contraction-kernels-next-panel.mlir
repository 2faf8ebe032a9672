// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-pack-weights{vector-bits=512},infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// Prefetches of the next panel of B and the next tile of A.

// B's panels packed at compile time, 2 MB ([16][1000][32]: more than L2
// holds once other data is in it). Each of the panel's 5 tiles prefetches
// its fifth of the next panel's k-block (rows k0.. of panel p + 1, two
// lines a row; after the last panel, rows k0 + 256.. of the first), one
// line per step at line (t * KC * 2 + 2 s) / 5 of it, so the block
// streams in over all the panel's steps, not at the pace of its first
// tile's loads; clamped to the panels' last element.
// CHECK-LABEL: func.func @large
// CHECK: scf.for %[[K0:.+]] = %c0 to %c1000 step %c256
// CHECK: scf.for %[[N0:.+]] = %c0 to %c512 step %c32
// CHECK: scf.for %[[M0:.+]] = %c0 to %c40 step %c8
// CHECK: %[[P:.+]] = arith.divui %[[N0]], %c32 : index
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1, 2]] : memref<16x1000x32xf32> into memref<512000xf32>
// CHECK: %[[NEXT:.+]] = arith.addi %[[P]], %c1 : index
// CHECK: %[[NEXTCOL:.+]] = arith.muli %[[NEXT]], %c32 : index
// CHECK: %[[WRAPS:.+]] = arith.cmpi uge, %[[NEXTCOL]], %c512 : index
// CHECK: %[[PANEL:.+]] = arith.select %[[WRAPS]], %c0, %[[NEXT]] : index
// CHECK: %[[LATER:.+]] = arith.addi %[[K0]], %c256 : index
// CHECK: %[[BLOCK:.+]] = arith.select %[[WRAPS]], %[[LATER]], %[[K0]] : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[PANEL]], %c1000 : index
// CHECK: %[[ROW:.+]] = arith.addi %[[ROWS]], %[[BLOCK]] : index
// CHECK: %[[BASE:.+]] = arith.muli %[[ROW]], %c32 : index
// CHECK: %[[T:.+]] = arith.divui %[[M0]], %c8 : index
// CHECK: %[[TLINE:.+]] = arith.muli %[[T]], %c512 : index
// CHECK: scf.for %[[K:.+]] = %[[K0]] to %{{.+}} step %c4
// CHECK: %[[S:.+]] = arith.subi %[[K]], %[[K0]] : index
// CHECK: %[[S2:.+]] = arith.muli %[[S]], %c2 : index
// CHECK: %[[G:.+]] = arith.addi %[[TLINE]], %[[S2]] : index
// CHECK: %[[LINE:.+]] = arith.divui %[[G]], %c5 : index
// CHECK: %[[OFF:.+]] = arith.muli %[[LINE]], %c16 : index
// CHECK: %[[AT:.+]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK: %[[CLAMPED:.+]] = arith.minui %[[AT]], %c511999 : index
// CHECK: memref.prefetch %[[FLAT]][%[[CLAMPED]]], read, locality<3>, data : memref<512000xf32>
memref.global "private" constant @w : memref<1000x512xf32> = dense<1.0>
func.func @large(%a: memref<40x1000xf32>, %c: memref<40x512xf32>) {
  %w = memref.get_global @w : memref<1000x512xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<40x1000xf32>, memref<1000x512xf32>) outs(%c : memref<40x512xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 500 KB of panels stay in L2: no prefetching.
// CHECK-LABEL: func.func @small
// CHECK-NOT: memref.prefetch
// CHECK: return
memref.global "private" constant @v : memref<250x512xf32> = dense<1.0>
func.func @small(%a: memref<40x250xf32>, %c: memref<40x512xf32>) {
  %v = memref.get_global @v : memref<250x512xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %v : memref<40x250xf32>, memref<250x512xf32>) outs(%c : memref<40x512xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A read in place, 2 MB (2048 x 256: from L3 or memory, one short stream
// per row that the hardware prefetchers do not follow): each tile of 8
// rows prefetches the next tile's rows of the k-block, one line per step
// at line s * 8 / 16 of them (16 lines a row), clamped to A's last row
// and column.
// CHECK-LABEL: func.func @tall
// CHECK: scf.for %[[M0:.+]] = %c0 to %c2048 step %c8
// CHECK: scf.for %[[K:.+]] = %c0 to %c256 step %c4
// CHECK: %[[S8:.+]] = arith.muli %[[K]], %c8 : index
// CHECK: %[[LINE:.+]] = arith.divui %[[S8]], %c16 : index
// CHECK: %[[ROWOFF:.+]] = arith.divui %[[LINE]], %c16 : index
// CHECK: %[[NEXTROW:.+]] = arith.addi %[[ROWOFF]], %c8 : index
// CHECK: %[[ROW:.+]] = arith.addi %[[M0]], %[[NEXTROW]] : index
// CHECK: %[[ROWC:.+]] = arith.minui %[[ROW]], %c2047 : index
// CHECK: %[[COLLINE:.+]] = arith.remui %[[LINE]], %c16 : index
// CHECK: %[[COL:.+]] = arith.muli %[[COLLINE]], %c16 : index
// CHECK: %[[COLC:.+]] = arith.minui %[[COL]], %c255 : index
// CHECK: memref.prefetch %arg0[%[[ROWC]], %[[COLC]]], read, locality<3>, data : memref<2048x256xf32>
func.func @tall(%a: memref<2048x256xf32>, %b: memref<256x64xf32>, %c: memref<2048x64xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x256xf32>, memref<256x64xf32>) outs(%c : memref<2048x64xf32>)
  return
}

// -----

// A of 512 KB stays in L2: no prefetches of it.
// CHECK-LABEL: func.func @short
// CHECK-NOT: memref.prefetch %arg0
// CHECK: return
func.func @short(%a: memref<512x256xf32>, %b: memref<256x64xf32>, %c: memref<512x64xf32>) {
  linalg.matmul ins(%a, %b : memref<512x256xf32>, memref<256x64xf32>) outs(%c : memref<512x64xf32>)
  return
}
