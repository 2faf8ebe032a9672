// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// Prefetches of the usual tiles in infer-cpu-contraction-kernels.

// C of 512 KiB (16 x 8192 floats): each row's epilogue store is followed
// by prefetches for writing of the lines two panels (64 columns) ahead,
// one per line of the 32-lane row, clamped to the buffer's last element.
// K = 8 is too short to prefetch B's rows ahead.
// CHECK-LABEL: func.func @stores_ahead
// CHECK-DAG: %[[LAST:.+]] = arith.constant 131071 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C80:.+]] = arith.constant 80 : index
// CHECK-NOT: read, locality
// CHECK: vector.store %{{.+}}, %[[Y:.+]][%[[AT:.+]]] : memref<131072xf32, strided<[1]>>, vector<32xf32>
// CHECK-NEXT: %[[P0:.+]] = arith.addi %[[AT]], %[[C64]]
// CHECK-NEXT: %[[Q0:.+]] = arith.minui %[[P0]], %[[LAST]]
// CHECK-NEXT: memref.prefetch %[[Y]][%[[Q0]]], write, locality<3>, data
// CHECK-NEXT: %[[P1:.+]] = arith.addi %[[AT]], %[[C80]]
// CHECK-NEXT: %[[Q1:.+]] = arith.minui %[[P1]], %[[LAST]]
// CHECK-NEXT: memref.prefetch %[[Y]][%[[Q1]]], write, locality<3>, data
func.func @stores_ahead(%a: memref<16x8xf32>, %b: memref<8x8192xf32>, %bias: memref<16xf32>, %y: memref<16x8192xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x8192xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x8192xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x8192xf32>) outs(%c : memref<16x8192xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<16x8192xf32>, memref<16xf32>) outs(%y : memref<16x8192xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %s = arith.addf %v, %t : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<16x8192xf32>
  return
}

// -----

// The same with C of 64 KiB: its lines stay in L2, no prefetches.
// CHECK-LABEL: func.func @small_output
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @small_output(%a: memref<16x8xf32>, %b: memref<8x1024xf32>, %bias: memref<16xf32>, %y: memref<16x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x1024xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x1024xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x1024xf32>) outs(%c : memref<16x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<16x1024xf32>, memref<16xf32>) outs(%y : memref<16x1024xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %s = arith.addf %v, %t : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<16x1024xf32>
  return
}

// -----

// B's rows (a 1x1 convolution's input: K = 48 planes of 1024 floats, 4
// KiB apart) read in place: each step prefetches the row 32 steps ahead
// at the panel's first and last columns; past K (one k-block) that is
// the next panel's row k - 16, so every panel's first rows are
// prefetched too (columns clamped to the last). (16 steps ahead left
// mobilenet_v2's 32 -> 16 projection at 112 x 112 waiting on its rows.)
// CHECK-LABEL: func.func @rows_ahead
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C48:.+]] = arith.constant 48 : index
// CHECK-DAG: %[[CM16:.+]] = arith.constant -16 : index
// CHECK-DAG: %[[C31:.+]] = arith.constant 31 : index
// CHECK-DAG: %[[C1023:.+]] = arith.constant 1023 : index
// CHECK: scf.for %[[N:.+]] = %c0 to %c1024 step %c32
// CHECK: scf.for %[[K:.+]] = %c0 to %c48 step %c1 iter_args
// CHECK-NEXT: vector.load %arg1[%[[K]], %[[N]]]
// CHECK-NEXT: %[[AHEAD:.+]] = arith.addi %[[K]], %[[C32]]
// CHECK-NEXT: %[[PAST:.+]] = arith.cmpi uge, %[[AHEAD]], %[[C48]]
// CHECK-NEXT: %[[WRAPPED:.+]] = arith.addi %[[K]], %[[CM16]]
// CHECK-NEXT: %[[ROW:.+]] = arith.select %[[PAST]], %[[WRAPPED]], %[[AHEAD]]
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[N]], %[[C32]]
// CHECK-NEXT: %[[PANEL:.+]] = arith.select %[[PAST]], %[[NEXT]], %[[N]]
// CHECK-NEXT: %[[FIRST:.+]] = arith.minui %[[PANEL]], %[[C1023]]
// CHECK-NEXT: memref.prefetch %arg1[%[[ROW]], %[[FIRST]]], read, locality<3>, data
// CHECK-NEXT: %[[END:.+]] = arith.addi %[[PANEL]], %[[C31]]
// CHECK-NEXT: %[[LAST:.+]] = arith.minui %[[END]], %[[C1023]]
// CHECK-NEXT: memref.prefetch %arg1[%[[ROW]], %[[LAST]]], read, locality<3>, data
func.func @rows_ahead(%a: memref<8x48xf32>, %b: memref<48x1024xf32>, %c: memref<8x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x48xf32>, memref<48x1024xf32>) outs(%c : memref<8x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Constant rows of B (weights; a recurrent layer reads them at every
// step, from L2) are not prefetched.
// CHECK-LABEL: func.func @constant_rows
// CHECK-NOT: memref.prefetch
// CHECK: return
memref.global "private" constant @weights : memref<32x1024xf32> = dense<1.0>
func.func @constant_rows(%a: memref<8x32xf32>, %c: memref<8x1024xf32>) {
  %b = memref.get_global @weights : memref<32x1024xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x32xf32>, memref<32x1024xf32>) outs(%c : memref<8x1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
