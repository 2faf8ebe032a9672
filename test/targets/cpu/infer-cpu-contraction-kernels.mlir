// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256 k-block=2},canonicalize)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s --check-prefix=AVX512
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{parallel=true},canonicalize)' | FileCheck %s --check-prefix=PARALLEL
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{parallel=true runtime-threads=true},canonicalize)' | FileCheck %s --check-prefix=THREADS

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// M = 25: four tiles of 6 rows and one of 1 (more tiles than read B in
// place: 4); N = 36: two 16-lane panels
// and a 4-column remainder in masked 8-lane vectors; K = 3 in blocks of 2.
// The k-block loop is outermost (a block of A serves every panel); each
// panel's rows of the block are first copied into the function's pack
// buffer, which the tiles then read.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: %[[PACK:.+]] = memref.alloca() : memref<2x16xf32>
// CHECK: scf.for %[[K0:.+]] = %c0 to %c3 step %c2
// CHECK: scf.for %[[N0:.+]] = %c0 to %c32 step %c16
// CHECK: scf.for %[[KP:.+]] = %[[K0]] to
// CHECK: %[[ROW:.+]] = vector.load %arg1[%[[KP]], %[[N0]]] : memref<3x36xf32>, vector<16xf32>
// CHECK: vector.store %[[ROW]], %[[PACK]]
// CHECK: scf.for %{{.+}} = %c0 to %c24 step %c6
// CHECK-COUNT-6: vector.load %arg2{{.+}} : memref<25x36xf32>, vector<16xf32>
// CHECK: scf.for %{{.+}} = %[[K0]] to %{{.+}} step %c1 iter_args(
// CHECK: vector.load %[[PACK]]
// CHECK: memref.load %arg0
// CHECK: vector.broadcast {{.+}} : f32 to vector<16xf32>
// CHECK-COUNT-6: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-6: vector.store {{.+}} : memref<25x36xf32>, vector<16xf32>
// The one remaining row:
// CHECK: vector.load %arg2[%c24, %{{.+}}] : memref<25x36xf32>, vector<16xf32>
// The remainder columns, in the same k-block:
// CHECK: vector.constant_mask [4] : vector<8xi1>
// CHECK: vector.maskedload %arg1
// CHECK: vector.maskedload %arg2
// CHECK: vector.fma {{.+}} : vector<8xf32>
// CHECK: vector.maskedstore %arg2
// With parallel=true the full panels (n0 = 0, 16) are one scf.parallel,
// each iteration with its own pack buffer; the iteration whose group ends
// at the last full panel also computes the remainder panel, with the same
// buffer (not the caller after the loop).
// With runtime-threads the group is ceil(2 panels / clamp(threads, 1, 2))
// panels of 16 columns, the thread count called for at run time.
// THREADS: func.func private @__infer_num_threads() -> index
// THREADS-LABEL: func.func @matmul
// THREADS: %[[T:.+]] = call @__infer_num_threads() : () -> index
// THREADS: %[[LO:.+]] = arith.maxsi %[[T]], %c1 : index
// THREADS: %[[HI:.+]] = arith.minsi %[[LO]], %c2 : index
// THREADS: %[[N:.+]] = arith.maxsi %[[HI]], %c1 : index
// THREADS: %[[P:.+]] = arith.ceildivui %c2, %[[N]] : index
// THREADS: %[[G:.+]] = arith.muli %[[P]], %c16 : index
// THREADS: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%[[G]])
// PARALLEL-LABEL: func.func @matmul
// PARALLEL: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c16)
// PARALLEL: %[[GROUPPACK:.+]] = memref.alloca() : memref<256x16xf32>
// PARALLEL: vector.fma
// PARALLEL: %[[LASTGROUP:.+]] = arith.cmpi eq, %{{.+}}, %c32 : index
// PARALLEL: scf.if %[[LASTGROUP]] {
// PARALLEL: vector.maskedload %arg1
// PARALLEL: vector.store %{{.+}}, %[[GROUPPACK]]
// PARALLEL: vector.maskedstore %arg2
// PARALLEL: scf.reduce
// PARALLEL-NOT: vector.fma
// PARALLEL: return
// AVX512-LABEL: func.func @matmul
// AVX512: vector.constant_mask [4] : vector<16xi1>
// AVX512: vector.fma {{.+}} : vector<16xf32>
func.func @matmul(%a: memref<25x3xf32>, %b: memref<3x36xf32>, %c: memref<25x36xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<25x3xf32>, memref<3x36xf32>) outs(%c : memref<25x36xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// M = 12: two tiles of 6 rows, at most the 3 that read rows of B in place
// when they load as whole vectors: no pack buffer, each step of the
// reduction loads its row of B straight from B.
// CHECK-LABEL: func.func @rows_in_place
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.+}} = %c0 to %c12 step %c6
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %c1 iter_args(
// CHECK: vector.load %arg1[%[[K]], %{{.+}}] : memref<20x32xf32>, vector<16xf32>
// CHECK-COUNT-6: vector.fma
func.func @rows_in_place(%a: memref<12x20xf32>, %b: memref<20x32xf32>, %c: memref<12x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<12x20xf32>, memref<20x32xf32>) outs(%c : memref<12x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A convolution after im2col: weights broadcast over the batch dim, which
// becomes an outer loop.
// CHECK-LABEL: func.func @conv_as_matmul
// CHECK: scf.for %[[N:.+]] = %c0 to %c2 step %c1
// CHECK: vector.fma
// CHECK-NOT: linalg.generic
func.func @conv_as_matmul(%w: memref<1x8x27xf32>, %col: memref<2x1x27x64xf32>, %out: memref<2x1x8x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, k, p) -> (g, f, k)>,
                                   affine_map<(n, g, f, k, p) -> (n, g, k, p)>,
                                   affine_map<(n, g, f, k, p) -> (n, g, f, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %col : memref<1x8x27xf32>, memref<2x1x27x64xf32>) outs(%out : memref<2x1x8x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B's innermost dimension is the reduction (a transposed operand): its
// rows are gathered at offsets linear in k and n (stride 8 along n).
// CHECK-LABEL: func.func @transposed_rhs
// CHECK-NOT: linalg.generic
// CHECK: vector.gather %arg1[%c0, %c0] [%{{.+}}], %{{.+}}, %{{.+}} : memref<16x8xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.fma
func.func @transposed_rhs(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>,
                                   affine_map<(m, k, n) -> (n, k)>,
                                   affine_map<(m, k, n) -> (m, n)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An implicit GEMM (a 3x3 stride-1 convolution reading its padded input
// through the window map): K = (c, kh, kw) collapses in A, N = (oh, ow)
// in C. Output rows are 18 long (>= a vector), so each 8-lane part of a
// packed row is a masked load finishing one output row plus a masked load
// starting the next, into the lanes after it (its address moved back by
// the lanes before): no gather, no expanding load (a branch per lane on
// AVX2). A packed row's offset into x is read from a table of the 36
// offsets c * 400 + kh * 20 + kw, made at compile time, instead of
// delinearizing k at every row; the last repeated 16 times, for rows
// prefetched 16 steps ahead without a clamp.
// CHECK: memref.global "private" constant @__infer_k_offsets : memref<52xi32> = dense<[0, 1, 2, 20, 21, 22, 40, 41, 42, 400, 401, 402, 420, 421, 422, 440, 441, 442, 800, 801, 802, 820, 821, 822, 840, 841, 842, 1200, 1201, 1202, 1220, 1221, 1222, 1240, 1241, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242, 1242]>
// CHECK-LABEL: func.func @conv_stride1
// CHECK: %[[TABLE:.+]] = memref.get_global @__infer_k_offsets : memref<52xi32>
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<8x4x3x3xf32> into memref<8x36xf32>
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0], [1, 2]] : memref<8x18x18xf32> into memref<8x324xf32>
// CHECK: memref.reinterpret_cast
// CHECK: vector.create_mask
// CHECK: %[[OFF:.+]] = memref.load %[[TABLE]][%{{.+}}] : memref<52xi32>
// CHECK: arith.index_cast %[[OFF]] : i32 to index
// CHECK: %[[FIRST:.+]] = vector.maskedload
// CHECK: %[[BACK:.+]] = arith.subi
// CHECK: vector.maskedload %{{.+}}{{\[}}%[[BACK]]], %{{.+}}, %[[FIRST]]
// CHECK-NOT: vector.gather
// CHECK-NOT: vector.expandload
// CHECK: vector.fma
func.func @conv_stride1(%w: memref<8x4x3x3xf32>, %x: memref<4x20x20xf32>, %y: memref<8x18x18xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<8x4x3x3xf32>, memref<4x20x20xf32>) outs(%y : memref<8x18x18xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Stride 2, output rows of 10 (vectors span rows): per run of lanes in
// one output row, a masked load of twice the lanes whose even elements it
// takes (offsets 2 apart along a row), selected into the run's lanes; no
// gather.
// CHECK-LABEL: func.func @conv_stride2
// CHECK-NOT: vector.gather
// CHECK: vector.maskedload
// CHECK-NEXT: vector.shuffle %[[PAIRS:.+]], %[[PAIRS]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK: arith.select
// CHECK: vector.fma
func.func @conv_stride2(%w: memref<8x4x3x3xf32>, %x: memref<4x21x21xf32>, %y: memref<8x10x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<8x4x3x3xf32>, memref<4x21x21xf32>) outs(%y : memref<8x10x10xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not taken: B's index is not linear in the loop dims.
// CHECK-LABEL: func.func @nonlinear_rhs
// CHECK: linalg.generic
// CHECK-NOT: vector.fma
func.func @nonlinear_rhs(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>,
                                   affine_map<(m, k, n) -> (k, n mod 16)>,
                                   affine_map<(m, k, n) -> (m, n)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two dims of A and C that B does not use (a recurrent layer's [seq,
// batch] rows) collapse into one M of 6 rows.
// CHECK-LABEL: func.func @rows_collapse
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<3x2x4xf32> into memref<6x4xf32>
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0, 1], [2]] : memref<3x2x16xf32> into memref<6x16xf32>
// CHECK: vector.fma
// CHECK-NOT: linalg.generic
func.func @rows_collapse(%a: memref<3x2x4xf32>, %b: memref<4x16xf32>, %c: memref<3x2x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(s, r, k, n) -> (s, r, k)>,
                                   affine_map<(s, r, k, n) -> (k, n)>,
                                   affine_map<(s, r, k, n) -> (s, r, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<3x2x4xf32>, memref<4x16xf32>) outs(%c : memref<3x2x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fill, contraction and bias + Relu into the output: the fill becomes the
// accumulators' start, the consumer runs on the last k-block's tile in
// registers and stores its output; neither C's fill nor its round trip
// through memory remains.
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT: linalg.fill
// CHECK: arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: vector.fma
// CHECK: arith.addf {{.+}} : vector<16xf32>
// CHECK: arith.maximumf {{.+}} : vector<16xf32>
// CHECK: vector.store {{.+}} : memref<512xf32, strided<[1]>>, vector<16xf32>
// CHECK-NOT: linalg.generic
func.func @epilogue(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %bias: memref<16xf32>, %y: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<16x32xf32>, memref<16xf32>) outs(%y : memref<16x32xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %s = arith.addf %v, %t : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<16x32xf32>
  return
}

// -----

// C is a workspace slice whose bytes a later value reuses, through a view
// of its own (another buffer's): C's only readers are the contraction and
// the consumer, so the consumer still runs in the kernel.
// CHECK-LABEL: func.func @epilogue_reused_slice
// CHECK: vector.fma
// CHECK: math.tanh {{.+}} : vector<16xf32>
// CHECK-NOT: linalg.generic
// CHECK: linalg.fill
func.func @epilogue_reused_slice(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %y: memref<16x32xf32>, %z: memref<16x32xf32>, %ws: memref<4096xi8>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %c = memref.view %ws[%c0][] {infer.buffer = 0 : i64} : memref<4096xi8> to memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %t = memref.view %ws[%c2048][] {infer.buffer = 1 : i64} : memref<4096xi8> to memref<16x32xf32>
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x32xf32>) outs(%t : memref<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  // A later value in C's bytes.
  %later = memref.view %ws[%c0][] {infer.buffer = 2 : i64} : memref<4096xi8> to memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%later : memref<16x32xf32>)
  memref.copy %t, %y : memref<16x32xf32> to memref<16x32xf32>
  memref.copy %later, %z : memref<16x32xf32> to memref<16x32xf32>
  return
}

// -----

// The consumer writes the interior of a padded buffer: each row of C (24
// columns) is three output rows of 8, 10 elements apart. Each row's
// vector is stored as runs, one masked store per output row, at the run's
// offset less its first lane: 10 r - 8 r for run r of row 0, 50 more for
// row 1.
// CHECK-LABEL: func.func @epilogue_into_interior
// CHECK: vector.fma
// CHECK: arith.maximumf {{.+}} : vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c0], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c2], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c4], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c50], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c52], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c54], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK-NOT: linalg.generic
func.func @epilogue_into_interior(%a: memref<2x4xf32>, %b: memref<4x24xf32>, %p: memref<2x5x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x4xf32>, memref<4x24xf32>) outs(%c : memref<2x24xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %rows = memref.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 8] : memref<2x24xf32> into memref<2x3x8xf32>
  %interior = memref.subview %p[0, 1, 1] [2, 3, 8] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : memref<2x3x8xf32>) outs(%interior : memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<2x24xf32>
  return
}

// -----

// The consumer adds a residual read from the interior of a padded buffer
// (another convolution's input): each row of C (24 columns) reads it as
// runs, one masked load per residual row (10 elements apart), each
// filling its lanes of the one before, at the run's offset less its first
// lane. The sum goes to a plain buffer with one store per row.
// CHECK-LABEL: func.func @residual_from_interior
// CHECK: vector.fma
// CHECK: %[[R0:.+]] = vector.maskedload %{{.+}}[%c0], %{{.+}}, %cst{{.*}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32> into vector<24xf32>
// CHECK: %[[R1:.+]] = vector.maskedload %{{.+}}[%c2], %{{.+}}, %[[R0]] : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32> into vector<24xf32>
// CHECK: %[[R2:.+]] = vector.maskedload %{{.+}}[%c4], %{{.+}}, %[[R1]] : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32> into vector<24xf32>
// CHECK: arith.addf %{{.+}}, %[[R2]] : vector<24xf32>
// CHECK: vector.store %{{.+}}, %{{.+}}[%c0] : memref<48xf32, strided<[1]>>, vector<24xf32>
// CHECK: vector.maskedload %{{.+}}[%c50]
// CHECK: vector.maskedload %{{.+}}[%c52]
// CHECK: vector.maskedload %{{.+}}[%c54]
// CHECK: vector.store %{{.+}}, %{{.+}}[%c24] : memref<48xf32, strided<[1]>>, vector<24xf32>
// CHECK-NOT: linalg.generic
func.func @residual_from_interior(%a: memref<2x4xf32>, %b: memref<4x24xf32>, %p: memref<2x5x10xf32>, %y: memref<2x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x4xf32>, memref<4x24xf32>) outs(%c : memref<2x24xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %rows = memref.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 8] : memref<2x24xf32> into memref<2x3x8xf32>
  %interior = memref.subview %p[0, 1, 1] [2, 3, 8] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows, %interior : memref<2x3x8xf32>, memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>) outs(%y : memref<2x3x8xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %s = arith.addf %v, %r : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<2x24xf32>
  return
}

// -----

// As above, with the border columns beside the interior's rows filled
// after the consumer (as infer-cpu-pad-borders leaves them): the kernel
// stores them with the runs that start and end output rows (here known at
// compile time: the run at interior offset 0 is row 1 of the padded
// buffer, whose left border is element 10 and right border element 19),
// and their fills go. The top row keeps its fill.
// CHECK-LABEL: func.func @epilogue_writes_borders
// CHECK: vector.fma
// CHECK: vector.maskedstore %{{.+}}[%c0], {{.+}} : memref<78xf32, strided<[1], offset: 11>>, vector<24xi1>, vector<24xf32>
// CHECK: memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [100], strides: [1]
// CHECK: vector.maskedstore %{{.+}}[%c10], {{.+}} : memref<100xf32, strided<[1]>>, vector<24xi1>, vector<24xf32>
// CHECK: vector.maskedstore %{{.+}}[%c19], {{.+}} : memref<100xf32, strided<[1]>>, vector<24xi1>, vector<24xf32>
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x3x1xf32
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x1x10xf32
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x3x1xf32
func.func @epilogue_writes_borders(%a: memref<2x4xf32>, %b: memref<4x24xf32>, %p: memref<2x5x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x4xf32>, memref<4x24xf32>) outs(%c : memref<2x24xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %rows = memref.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 8] : memref<2x24xf32> into memref<2x3x8xf32>
  %interior = memref.subview %p[0, 1, 1] [2, 3, 8] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : memref<2x3x8xf32>) outs(%interior : memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  %top = memref.subview %p[0, 0, 0] [2, 1, 10] [1, 1, 1] : memref<2x5x10xf32> to memref<2x1x10xf32, strided<[50, 10, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x1x10xf32, strided<[50, 10, 1]>>)
  %left = memref.subview %p[0, 1, 0] [2, 3, 1] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x1xf32, strided<[50, 10, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x3x1xf32, strided<[50, 10, 1], offset: 10>>)
  %right = memref.subview %p[0, 1, 9] [2, 3, 1] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x1xf32, strided<[50, 10, 1], offset: 19>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x3x1xf32, strided<[50, 10, 1], offset: 19>>)
  memref.dealloc %c : memref<2x24xf32>
  return
}

// -----

// Something reads the padded buffer before the border fills: they stay.
// CHECK-LABEL: func.func @borders_after_a_read
// CHECK: vector.fma
// CHECK: memref.copy
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x3x1xf32
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x3x1xf32
func.func @borders_after_a_read(%a: memref<2x4xf32>, %b: memref<4x24xf32>, %p: memref<2x5x10xf32>, %out: memref<2x5x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x4xf32>, memref<4x24xf32>) outs(%c : memref<2x24xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %rows = memref.expand_shape %c [[0], [1, 2]] output_shape [2, 3, 8] : memref<2x24xf32> into memref<2x3x8xf32>
  %interior = memref.subview %p[0, 1, 1] [2, 3, 8] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : memref<2x3x8xf32>) outs(%interior : memref<2x3x8xf32, strided<[50, 10, 1], offset: 11>>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.copy %p, %out : memref<2x5x10xf32> to memref<2x5x10xf32>
  %left = memref.subview %p[0, 1, 0] [2, 3, 1] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x1xf32, strided<[50, 10, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x3x1xf32, strided<[50, 10, 1], offset: 10>>)
  %right = memref.subview %p[0, 1, 9] [2, 3, 1] [1, 1, 1] : memref<2x5x10xf32> to memref<2x3x1xf32, strided<[50, 10, 1], offset: 19>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x3x1xf32, strided<[50, 10, 1], offset: 19>>)
  memref.dealloc %c : memref<2x24xf32>
  return
}

// -----

// A boolean mask read along the rows (an attention mask): vectors of i1
// are bit-packed, the buffer has a byte per element, so the consumer
// stays a separate op.
// CHECK-LABEL: func.func @no_epilogue_with_mask
// CHECK: vector.fma
// CHECK: linalg.generic
func.func @no_epilogue_with_mask(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %mask: memref<16x32xi1>, %y: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %mask : memref<16x32xf32>, memref<16x32xi1>) outs(%y : memref<16x32xf32>) {
  ^bb0(%v: f32, %m: i1, %o: f32):
    %r = arith.select %m, %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<16x32xf32>
  return
}

// -----

// C is the caller's buffer (a model output): it must hold the contraction,
// so the consumer stays a separate op.
// CHECK-LABEL: func.func @no_epilogue_into_output
// CHECK: vector.fma
// CHECK: linalg.generic
func.func @no_epilogue_into_output(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %c: memref<16x32xf32>, %y: memref<16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x32xf32>) outs(%y : memref<16x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Two panels of columns but eight 6-row tiles: with parallel=true the
// threads split the rows of C (two chunks of 24) instead of the panels.
// With runtime-threads: ceil(8 tiles / clamp(threads, 1, 2)) tiles of 6.
// THREADS-LABEL: func.func @few_panels
// THREADS: call @__infer_num_threads()
// THREADS: arith.minsi %{{.+}}, %c2 : index
// THREADS: %[[C:.+]] = arith.ceildivui %c8, %{{.+}} : index
// THREADS: %[[R:.+]] = arith.muli %[[C]], %c6 : index
// THREADS: scf.parallel (%{{.+}}) = (%c0) to (%c48) step (%[[R]])
// PARALLEL-LABEL: func.func @few_panels
// PARALLEL: scf.parallel (%{{.+}}) = (%c0) to (%c48) step (%c24)
// PARALLEL: vector.fma
// PARALLEL: scf.reduce
func.func @few_panels(%a: memref<48x8xf32>, %b: memref<8x32xf32>, %c: memref<48x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<48x8xf32>, memref<8x32xf32>) outs(%c : memref<48x32xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Output rows of 7 (a late stage): a 16-lane vector spans up to 4 of
// them, loaded as four masked loads, still no gather. The second run
// (lanes 7.., the next output row at input offset 9) loads from 9 - 7.
// AVX512-LABEL: func.func @conv_short_rows
// AVX512: %[[ROW:.+]] = vector.maskedload %{{.+}}{{\[}}%[[AT:[0-9a-z_]+]]]
// AVX512: %[[NEXT:.+]] = arith.addi %[[AT]], %c2 : index
// AVX512: vector.maskedload %{{.+}}{{\[}}%[[NEXT]]], %{{.+}}, %[[ROW]]
// AVX512-COUNT-2: vector.maskedload
// AVX512-NOT: vector.expandload
// AVX512-NOT: vector.gather
// AVX512: vector.fma
func.func @conv_short_rows(%w: memref<16x4x3x3xf32>, %x: memref<4x9x9xf32>, %y: memref<16x7x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<16x4x3x3xf32>, memref<4x9x9xf32>) outs(%y : memref<16x7x7xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// N known only at run time (a convolution's output plane over a dynamic
// image): the full 16-column panels run to N - N mod 16, then one panel
// of the remaining columns, when there are any, under a mask made at run
// time.
// CHECK-LABEL: func.func @matmul_dynamic_n
// CHECK-NOT: linalg.generic
// CHECK: %[[N:.+]] = memref.dim %arg2, %c1 : memref<7x?xf32>
// CHECK: %[[REM:.+]] = arith.remui %[[N]], %c16
// CHECK: %[[FULL:.+]] = arith.subi %[[N]], %[[REM]]
// CHECK: scf.for %{{.+}} = %c0 to %[[FULL]] step %c16
// CHECK: vector.fma {{.+}} : vector<16xf32>
// CHECK: scf.if
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK: vector.maskedload %arg1{{.+}}, %[[MASK]]
// CHECK: vector.maskedstore %arg2{{.+}}, %[[MASK]]
// PARALLEL-LABEL: func.func @matmul_dynamic_n
// PARALLEL: arith.ceildivui
// PARALLEL: scf.parallel
// PARALLEL: vector.create_mask
func.func @matmul_dynamic_n(%a: memref<7x5xf32>, %b: memref<5x?xf32>, %c: memref<7x?xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<7x5xf32>, memref<5x?xf32>) outs(%c : memref<7x?xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// A matrix-vector product (M = 1, a recurrent layer's h.R^T): one 96-lane
// panel (12 AVX2 vectors, as many accumulators as a 6-row tile has). Its
// k loop carries twelve 8-lane pieces, not one vector<96xf32>, which LLVM
// would take apart into scalars at every step.
// CHECK-LABEL: func.func @matvec
// CHECK: scf.for {{.+}} iter_args({{.+}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.fma {{.+}} : vector<96xf32>
// CHECK-COUNT-12: vector.extract_strided_slice
func.func @matvec(%h: memref<1x64xf32>, %r: memref<64x96xf32>, %g: memref<1x96xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%h, %r : memref<1x64xf32>, memref<64x96xf32>) outs(%g : memref<1x96xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// A packed by infer-cpu-pack-weights for 6-row tiles ([5][K = 2][6]):
// each tile reads its rows from the packed copy, tile m0 / 6 (the last,
// one-row tile from tile 4), not from A's rows, and prefetch it ahead. For 8-row tiles (AVX-512)
// the packing does not fit, and A is read in place.
// CHECK-LABEL: func.func @packed_lhs
// CHECK: %[[P:.+]] = memref.get_global @w_packed : memref<5x2x6xf32>
// CHECK: scf.for %[[M0:.+]] = %c0 to %c24 step %c6
// CHECK: %[[T:.+]] = arith.divui %[[M0]], %c6
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %c1 iter_args(
// The tile's stream of A is prefetched 32 steps ahead (clamped to K - 1).
// CHECK: %[[AHEAD:.+]] = arith.minui %{{.+}}, %c1 : index
// CHECK: memref.prefetch %[[P]][%[[T]], %[[AHEAD]], %c0], read, locality<3>, data : memref<5x2x6xf32>
// CHECK: memref.load %[[P]][%[[T]], %[[K]], %c0] : memref<5x2x6xf32>
// CHECK: memref.load %[[P]][%[[T]], %[[K]], %c5] : memref<5x2x6xf32>
// CHECK: scf.yield
// CHECK: memref.load %[[P]][%c4, %{{.+}}, %c0] : memref<5x2x6xf32>
// AVX512-LABEL: func.func @packed_lhs
// AVX512-NOT: @w_packed
// AVX512: memref.load %{{.+}} : memref<25x2xf32>
memref.global "private" constant @w : memref<25x2xf32> = dense<1.0>
memref.global "private" constant @w_packed : memref<5x2x6xf32> = dense<1.0>
func.func @packed_lhs(%b: memref<2x36xf32>, %c: memref<25x36xf32>) {
  %a = memref.get_global @w : memref<25x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<25x2xf32>, memref<2x36xf32>) outs(%c : memref<25x36xf32>)
      attrs = {infer.packed_lhs = {global = @w_packed, operand = 0 : i64, rows = 6 : i64}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(t, m, k, n) -> (t, m, k)>
#b = affine_map<(t, m, k, n) -> (t, k, n)>
#c = affine_map<(t, m, k, n) -> (t, m, n)>

// A batch of two packed matrices along loop dim t ([2 x 2][K = 2][6]):
// batch t's tile i is packed tile i + 2 t (M = 7: tiles 0 and 1, whose
// loop is unrolled).
// CHECK-LABEL: func.func @packed_lhs_batch
// CHECK: %[[P:.+]] = memref.get_global @t_packed : memref<4x2x6xf32>
// CHECK: scf.for %[[B:.+]] = %c0 to %c2 step %c1
// CHECK: %[[T0:.+]] = arith.muli %[[B]], %c2
// CHECK: memref.load %[[P]][%[[T0]], %c0, %c0] : memref<4x2x6xf32>
// CHECK: %[[T1:.+]] = arith.addi %{{.+}}, %c1
// CHECK: memref.load %[[P]][%[[T1]], %c0, %c0] : memref<4x2x6xf32>
memref.global "private" constant @t : memref<2x7x2xf32> = dense<1.0>
memref.global "private" constant @t_packed : memref<4x2x6xf32> = dense<1.0>
func.func @packed_lhs_batch(%b: memref<2x2x36xf32>, %c: memref<2x7x36xf32>) {
  %a = memref.get_global @t : memref<2x7x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x7x2xf32>, memref<2x2x36xf32>) outs(%c : memref<2x7x36xf32>)
      attrs = {infer.packed_lhs = {batch = 0 : i64, global = @t_packed, operand = 0 : i64, rows = 6 : i64}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two convolutions over windows of the same shape share one table.
// CHECK: memref.global "private" constant @__infer_k_offsets : memref<52xi32>
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @two_convs_one_table
// CHECK-COUNT-2: memref.get_global @__infer_k_offsets : memref<52xi32>
func.func @two_convs_one_table(%w: memref<8x4x3x3xf32>, %x: memref<4x20x20xf32>, %y: memref<8x18x18xf32>, %z: memref<8x18x18xf32>) {
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<8x4x3x3xf32>, memref<4x20x20xf32>) outs(%y : memref<8x18x18xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(f, c, kh, kw, oh, ow) -> (f, c, kh, kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(f, c, kh, kw, oh, ow) -> (f, oh, ow)>],
                  iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%w, %x : memref<8x4x3x3xf32>, memref<4x20x20xf32>) outs(%z : memref<8x18x18xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
