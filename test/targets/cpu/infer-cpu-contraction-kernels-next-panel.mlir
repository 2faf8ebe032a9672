// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-pack-weights{vector-bits=512},infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// Prefetches of the next panel of B and the next tile of A.

// B's panels packed at compile time, 2 MB ([16][1000][32]: more than L2
// holds once other data is in it). Each of the panel's 5 tiles prefetches
// its fifth of the next panel's k-block (rows k0.. of panel p + 1, two
// lines a row; after the last panel, rows k0 + 256.. of the first), from
// line (t * KC * 2 + 2 s) / 5 of it at step s, so the block streams in
// over all the panel's steps, not at the pace of its first tile's loads;
// clamped to the panels' last element. The unrolled loop's group of 4
// steps advances 8 / 5 lines: its first step prefetches 2 lines for all
// four, the others none (their arithmetic cost as much as the FMAs on
// AVX2); the remainder loop's single steps one line each.
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
// CHECK: %[[AT2:.+]] = arith.addi %[[AT]], %c16 : index
// CHECK: %[[CLAMPED2:.+]] = arith.minui %[[AT2]], %c511999 : index
// CHECK: memref.prefetch %[[FLAT]][%[[CLAMPED2]]], read, locality<3>, data : memref<512000xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.yield
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1
// CHECK-COUNT-1: memref.prefetch %[[FLAT]]
// CHECK-NOT: memref.prefetch
// CHECK: scf.yield
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
// rows prefetches the next tile's rows of the k-block, from line
// s * 8 / 16 of them at step s (16 lines a row), clamped to A's last row
// and column: 2 lines at the first step of each group of 4.
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
// CHECK: %[[LINE2:.+]] = arith.addi %[[LINE]], %c1 : index
// CHECK: %[[ROWOFF2:.+]] = arith.divui %[[LINE2]], %c16 : index
// CHECK: %[[COLLINE2:.+]] = arith.remui %[[LINE2]], %c16 : index
// CHECK: memref.prefetch %arg0[
// CHECK-NOT: memref.prefetch
// CHECK: scf.yield
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

// -----

// A constant (a convolution's filters) packed at compile time into
// [tile][K][8]: each tile's one stream is prefetched 32 steps ahead,
// clamped to the last step. A group of 4 steps reads 4 x 8 floats, two
// lines: its first step prefetches steps +32 and +34 (2 rows a line).
// CHECK-LABEL: func.func @packed_filters
// CHECK: %[[PACKED:.+]] = memref.get_global @f_packed : memref<2x256x8xf32>
// CHECK: scf.for %[[M0:.+]] = %c0 to %c16 step %c8
// CHECK: %[[T:.+]] = arith.divui %[[M0]], %c8 : index
// CHECK: scf.for %[[K:.+]] = %c0 to %c256 step %c4
// CHECK: %[[A1:.+]] = arith.addi %[[K]], %c32 : index
// CHECK: %[[C1:.+]] = arith.minui %[[A1]], %c255 : index
// CHECK: memref.prefetch %[[PACKED]][%[[T]], %[[C1]], %c0]
// CHECK: %[[A2:.+]] = arith.addi %[[K]], %c34 : index
// CHECK: %[[C2:.+]] = arith.minui %[[A2]], %c255 : index
// CHECK: memref.prefetch %[[PACKED]][%[[T]], %[[C2]], %c0]
// CHECK-NOT: memref.prefetch
// CHECK: scf.yield
memref.global "private" constant @f : memref<16x256xf32> = dense<1.0>
func.func @packed_filters(%b: memref<256x64xf32>, %c: memref<16x64xf32>) {
  %a = memref.get_global @f : memref<16x256xf32>
  linalg.matmul ins(%a, %b : memref<16x256xf32>, memref<256x64xf32>) outs(%c : memref<16x64xf32>)
  return
}
