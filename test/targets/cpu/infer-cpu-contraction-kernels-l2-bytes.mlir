// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s --check-prefix=L1M
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 l2-bytes=2097152},canonicalize)' | FileCheck %s --check-prefix=L2M

// A 1024 x 1024 matmul: C (4 MiB) outgrows L2 either way. A's rows are
// 4 KiB apart, so the kernel copies A in blocks of rows, and each block
// sweeps all of B's panels. With 1 MiB of L2 (Zen 4) a k-block of B (1
// MiB) would not stay in it: one block of all of K, 16 rows of A per
// sweep. With 2 MiB (Emerald Rapids) it does: k-blocks of 256, 64 rows
// of A per sweep of B's block from L2 (14.2 -> 13.1 ms, 1 thread).
// L1M-LABEL: func.func @square
// L1M: memref.alloca() : memref<1024x32xf32>
// L1M-NOT: step %c256
// L1M: scf.for %{{.+}} = %c0 to %c1024 step %c16
// L2M-LABEL: func.func @square
// L2M: memref.alloca() : memref<256x32xf32>
// L2M: scf.for %{{.+}} = %c0 to %c1024 step %c256
// L2M: scf.for %{{.+}} = %c0 to %c1024 step %c64
func.func @square(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// K = 1000: A's rows do not alias and are read in place, each panel of
// B sweeping all of A from L3 by rows, which the prefetchers follow:
// one block of all of K with either L2 (blocks that keep A's in 2 MiB
// ran 13.0 -> 14.4 ms).
// L1M-LABEL: func.func @rows_apart
// L1M-NOT: step %c256
// L1M: return
// L2M-LABEL: func.func @rows_apart
// L2M-NOT: step %c256
// L2M: return
func.func @rows_apart(%a: memref<1024x1000xf32>, %b: memref<1000x1024xf32>, %c: memref<1024x1024xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x1000xf32>, memref<1000x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}
