// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// The k loop of the usual tiles in infer-cpu-contraction-kernels: a full
// tile (8 rows of 32 columns on AVX-512) over K >= 64 takes 4 steps per
// iteration, 8 FMAs of 32 lanes each (with bounds known only at run time
// a one-step loop for the remainder follows; here K = 64 has none).

// M = 12: one full tile (unrolled) and a tail tile of 4 rows (not).
// CHECK-LABEL: func.func @unrolled
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c4
// CHECK-COUNT-32: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// The tail tile's 4 rows, one step per iteration.
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c1
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
func.func @unrolled(%a: memref<12x64xf32>, %b: memref<64x32xf32>, %c: memref<12x32xf32>) {
  linalg.matmul ins(%a, %b : memref<12x64xf32>, memref<64x32xf32>) outs(%c : memref<12x32xf32>)
  return
}

// -----

// K = 32: short, one step per iteration.
// CHECK-LABEL: func.func @short
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c1
// CHECK-COUNT-8: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
func.func @short(%a: memref<8x32xf32>, %b: memref<32x32xf32>, %c: memref<8x32xf32>) {
  linalg.matmul ins(%a, %b : memref<8x32xf32>, memref<32x32xf32>) outs(%c : memref<8x32xf32>)
  return
}
