// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-pack-weights{vector-bits=512},infer-cpu-contraction-kernels{vector-bits=512 parallel=true runtime-threads=true},canonicalize)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-pack-weights{vector-bits=256},infer-cpu-contraction-kernels{vector-bits=256},canonicalize)' | FileCheck %s --check-prefix=AVX2

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// Transposed tiles (TransposedTiles.cpp): N = 49 fills 49 of 64 lanes,
// M = 64 fills its vectors, so the tile is 2 vectors of C's rows (A packed
// at compile time as [2][K][32]) by 14 columns of C, each a broadcast of
// B's element. Two tiles of 4 panels (14, 14, 14 and 7 columns) are 8
// units of work, one iteration each of the parallel loop (the executor
// gives each thread a range of them, and a thread done early takes the
// last of another's: no thread count here); each unit picks its panel by
// index_switch. The whole reduction runs at once (28 accumulators),
// then the tile is transposed in registers (two 16 x 16 blocks, 4 stages
// of shuffles each, columns past 14 zero) into a stack buffer, [32 rows]
// [16], and each row of C is one load of it.
// CHECK: memref.global "private" constant @w_packed : memref<2x128x32xf32>
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: linalg.fill
// CHECK: %[[PACKED:.+]] = memref.get_global @w_packed : memref<2x128x32xf32>
// CHECK: %[[B:.+]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [6272]
// CHECK-NOT: call @__infer_num_threads()
// CHECK: scf.parallel (%[[UNIT:.+]]) = (%c0) to (%c8) step (%c1)
// CHECK: %[[BUF:.+]] = memref.alloca() : memref<512xf32>
// CHECK: %[[NEXT:.+]] = arith.addi %[[UNIT]], %c1 : index
// CHECK: scf.for %{{.+}} = %[[UNIT]] to %[[NEXT]] step %c1
// CHECK: scf.index_switch
// CHECK: scf.for %[[K:.+]] = %c0 to %c128 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// B's rows 16 steps ahead are prefetched at the panel's first and last
// columns (rows another core wrote arrive late otherwise).
// CHECK: %[[LATER:.+]] = arith.addi %[[K]], %c16 : index
// CHECK: %[[ROW16:.+]] = arith.minui %[[LATER]], %c127 : index
// CHECK: %[[AT16:.+]] = arith.muli %[[ROW16]], %c49 : index
// CHECK: %[[FIRSTCOL:.+]] = arith.addi %[[AT16]], %{{.+}} : index
// CHECK: memref.prefetch %[[B]][%[[FIRSTCOL]]], read, locality<3>, data
// CHECK: %[[LASTCOL:.+]] = arith.addi %[[AT16]], %{{.+}} : index
// CHECK: memref.prefetch %[[B]][%[[LASTCOL]]], read, locality<3>, data
// CHECK: %[[A0:.+]] = vector.load %[[PACKED]][%{{.+}}, %[[K]], %c0] : memref<2x128x32xf32>, vector<16xf32>
// CHECK: %[[A1:.+]] = vector.load %[[PACKED]][%{{.+}}, %[[K]], %c16] : memref<2x128x32xf32>, vector<16xf32>
// CHECK: %[[E:.+]] = memref.load %[[B]]
// CHECK: %[[S:.+]] = vector.broadcast %[[E]] : f32 to vector<16xf32>
// CHECK: vector.fma %[[A0]], %[[S]]
// CHECK: vector.fma %[[A1]], %[[S]]
// CHECK-COUNT-32: vector.shuffle
// CHECK-COUNT-16: vector.store %{{.+}}, %[[BUF]]
// CHECK-COUNT-32: vector.shuffle
// CHECK-COUNT-16: vector.store %{{.+}}, %[[BUF]]
// CHECK: %[[MASK:.+]] = vector.constant_mask [14] : vector<16xi1>
// CHECK: scf.for %[[I:.+]] = %c0 to %c32 step %c1
// CHECK: %[[AT:.+]] = arith.muli %[[I]], %c16 : index
// CHECK: %[[ROW:.+]] = vector.load %[[BUF]][%[[AT]]] : memref<512xf32>, vector<16xf32>
// CHECK: vector.maskedstore %arg1[%{{.+}}, %{{.+}}], %[[MASK]], %[[ROW]] : memref<64x49xf32>, vector<16xi1>, vector<16xf32>
// The last panel, 7 columns: 14 accumulators.
// CHECK: scf.for %{{.+}} = %c0 to %c128 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: vector.constant_mask [7] : vector<16xi1>
// On AVX2 the tile is 2 vectors of 8 rows by 6 columns: A packed as
// [4][K][16], 12 accumulators.
// AVX2: memref.global "private" constant @w_packed : memref<4x128x16xf32>
// AVX2-LABEL: func.func @transposed
// AVX2: memref.alloca() : memref<128xf32>
// AVX2: scf.for %{{.+}} = %c0 to %c128 step %c1 iter_args({{.+}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// AVX2: vector.shuffle {{.+}} : vector<8xf32>, vector<8xf32>
// AVX2: vector.load {{.+}} : memref<128xf32>, vector<8xf32>
memref.global "private" constant @w : memref<64x128xf32> = dense<1.0>
func.func @transposed(%b: memref<128x49xf32>, %c: memref<64x49xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @w : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x49xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<64x128xf32>, memref<128x49xf32>) outs(%c : memref<64x49xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, k, oh, ow) -> (m, k)>
#b = affine_map<(m, k, oh, ow) -> (k, oh, ow)>
#c = affine_map<(m, k, oh, ow) -> (m, oh, ow)>

// A 20x16 plane (320 columns, more than 16 panels of 14): chunks of whole
// rows, 14 rows (224 columns) and the last 6 (96), the chunk's offset
// into B made once per chunk and each column's a constant after it.
// 2 tiles x 2 chunks x 2 groups of panels: 8 units.
// CHECK-LABEL: func.func @chunks
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c8) step (%c1)
// CHECK: %[[REST:.+]] = arith.remui %{{.+}}, %c4 : index
// CHECK: %[[CHUNK:.+]] = arith.divui %[[REST]], %c2 : index
// CHECK: %[[FIRST:.+]] = arith.muli %[[CHUNK]], %c224 : index
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[CHUNK]], %c1 : index
// CHECK: scf.if %[[LAST]]
// CHECK: } else {
// CHECK: vector.fma
memref.global "private" constant @w2 : memref<64x128xf32> = dense<1.0>
func.func @chunks(%b: memref<128x20x16xf32>, %c: memref<64x20x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @w2 : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x20x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%g, %b : memref<64x128xf32>, memref<128x20x16xf32>) outs(%c : memref<64x20x16xf32>) {
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

// Left to the usual tiles: a reduction too short to pay for the
// transposed store (K = 64), and a C with no fill before it.
// CHECK-LABEL: func.func @usual
// CHECK: memref.get_global @{{.+}} : memref<8x64x8xf32>
// CHECK-NOT: vector.shuffle
// CHECK: return
// CHECK-LABEL: func.func @no_fill
// CHECK-NOT: vector.shuffle
// CHECK: return
memref.global "private" constant @short : memref<64x64xf32> = dense<1.0>
memref.global "private" constant @long : memref<64x128xf32> = dense<1.0>
func.func @usual(%b: memref<64x49xf32>, %c: memref<64x49xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @short : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x49xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<64x64xf32>, memref<64x49xf32>) outs(%c : memref<64x49xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @no_fill(%b: memref<128x49xf32>, %c: memref<64x49xf32>) {
  %g = memref.get_global @long : memref<64x128xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<64x128xf32>, memref<128x49xf32>) outs(%c : memref<64x49xf32>) {
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

// K = 1024, more than a k-block (512): the unit's panels take each block
// of A in turn, their sums kept between blocks in a stack buffer
// ([panels of the group = 1][28][16]): the first block starts from the
// fill, later ones load the sums; the last stores C, earlier ones the sums.
// A group of one panel prefetches A's rows 32 steps ahead, both lines of
// a step, in A flattened (the next tile's rows follow the last block's).
// CHECK-LABEL: func.func @blocks
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1, 2]] : memref<2x1024x32xf32> into memref<65536xf32>
// CHECK: %[[PARTIAL:.+]] = memref.alloca() : memref<1x28x16xf32>
// CHECK: scf.for %[[K0:.+]] = %c0 to %c1024 step %c512
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[K0]], %c0 : index
// CHECK: scf.if %[[FIRST]]
// CHECK: } else {
// CHECK-COUNT-28: vector.load %[[PARTIAL]]
// CHECK: %[[END:.+]] = arith.minsi
// CHECK: scf.for %[[K:.+]] = %[[K0]] to %[[END]] step %c1
// CHECK: %[[AHEAD:.+]] = arith.addi %[[K]], %c32 : index
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[AHEAD]] : index
// CHECK: %[[AT:.+]] = arith.muli %[[ROW]], %c32 : index
// CHECK: %[[AT0:.+]] = arith.minui %[[AT]], %c65535 : index
// CHECK: memref.prefetch %[[FLAT]][%[[AT0]]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[AT]], %c16 : index
// CHECK: %[[AT1:.+]] = arith.minui %[[NEXT]], %c65535 : index
// CHECK: memref.prefetch %[[FLAT]][%[[AT1]]]
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[END]], %c1024 : index
// CHECK: scf.if %[[LAST]] {
// CHECK: vector.shuffle
// CHECK: } else {
// CHECK-COUNT-28: vector.store %{{.+}}, %[[PARTIAL]]
memref.global "private" constant @deep : memref<64x1024xf32> = dense<1.0>
func.func @blocks(%b: memref<1024x49xf32>, %c: memref<64x49xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @deep : memref<64x1024xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x49xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<64x1024xf32>, memref<1024x49xf32>) outs(%c : memref<64x49xf32>) {
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

// 8 tiles: one group of all 4 panels per unit, each reusing a k-block
// from L1. The next block (512 rows of 2 lines) is prefetched over the 4
// panels: panel p fetches its quarter, 256 lines from float p * 4096 of
// the next block, one a step (its last again after the first 256 steps;
// clamped to A's last element too). The 3
// full panels (14 columns each, alike) run as a loop over p, each
// column's element at a constant from the panel's first (p * 14); the
// last panel, 7 columns, after it.
// CHECK-LABEL: func.func @spread
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.+}} : memref<8x1024x32xf32> into memref<262144xf32>
// CHECK: scf.for %[[K0:.+]] = %c0 to %c1024 step %c512
// CHECK: scf.for %[[P:.+]] = %c0 to %c3 step %c1
// CHECK: %[[FIRSTCOL:.+]] = arith.muli %[[P]], %c14 : index
// CHECK: %[[LASTCOL:.+]] = arith.addi %[[FIRSTCOL]], %c13 : index
// CHECK: scf.for %[[K:.+]] = %[[K0]] to %{{.+}} step %c1
// CHECK: %[[NEXT:.+]] = arith.addi %[[K0]], %c512 : index
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[NEXT]] : index
// CHECK: %[[SHARE:.+]] = arith.muli %[[P]], %c4096 : index
// CHECK: %[[BASE:.+]] = arith.muli %[[ROW]], %c32 : index
// CHECK: %[[FIRST:.+]] = arith.addi %[[BASE]], %[[SHARE]] : index
// CHECK: %[[END:.+]] = arith.addi %[[FIRST]], %c4080 : index
// CHECK: %[[LAST:.+]] = arith.minui %[[END]], %c262143 : index
// CHECK: %[[S:.+]] = arith.subi %[[K]], %[[K0]] : index
// CHECK: %[[FLOATS:.+]] = arith.muli %[[S]], %c16 : index
// CHECK: %[[AT:.+]] = arith.addi %[[FIRST]], %[[FLOATS]] : index
// CHECK: %[[AT0:.+]] = arith.minui %[[AT]], %[[LAST]] : index
// CHECK: memref.prefetch %[[FLAT]][%[[AT0]]]
// CHECK-NOT: memref.prefetch %[[FLAT]]
// B's row 16 steps on, prefetched at the panel's last column:
// CHECK: %[[LATER:.+]] = arith.muli %{{.+}}, %c49 : index
// CHECK: arith.addi %[[LATER]], %[[LASTCOL]] : index
// CHECK: vector.fma
// CHECK-COUNT-27: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// The last panel's share starts 3 * 4096 floats in.
// CHECK: scf.for %[[K2:.+]] = %[[K0]] to %{{.+}} step %c1
// CHECK: arith.addi %{{.+}}, %c12288 : index
memref.global "private" constant @wide : memref<256x1024xf32> = dense<1.0>
func.func @spread(%b: memref<1024x49xf32>, %c: memref<256x49xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @wide : memref<256x1024xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x49xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<256x1024xf32>, memref<1024x49xf32>) outs(%c : memref<256x49xf32>) {
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

// K = 576 would leave a second k-block of 64 steps (under a quarter of
// 512): one block, no sums kept between blocks.
// CHECK-LABEL: func.func @one_block
// CHECK-NOT: memref<1x28x16xf32>
// CHECK-NOT: step %c512
// CHECK: scf.for %{{.+}} = %c0 to %c576 step %c1
// CHECK-NOT: memref<1x28x16xf32>
// CHECK: return
memref.global "private" constant @just_over : memref<64x576xf32> = dense<1.0>
func.func @one_block(%b: memref<576x49xf32>, %c: memref<64x49xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @just_over : memref<64x576xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x49xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<64x576xf32>, memref<576x49xf32>) outs(%c : memref<64x49xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#w = affine_map<(n, g, m, k, p) -> (g, m, k)>
#x = affine_map<(n, g, m, k, p) -> (n, g, k, p)>
#y = affine_map<(n, g, m, k, p) -> (n, g, m, p)>

// One column of C (a squeeze-excite 1x1 convolution over a pooled 1 x 1
// plane): vectors along N would use one lane of 16, so transposed tiles
// even for a short reduction (K = 64): 120 -> 480 over 1 x 1, 14.3 ->
// 3.4 us (Emerald Rapids, 1 thread).
// CHECK: memref.global "private" constant @se_packed : memref<2x64x32xf32>
// CHECK-LABEL: func.func @one_column
// CHECK: vector.shuffle
// AVX2: memref.global "private" constant @se_packed : memref<4x64x16xf32>
// AVX2-LABEL: func.func @one_column
memref.global "private" constant @se : memref<1x64x64xf32> = dense<1.0>
func.func @one_column(%b: memref<1x1x64x1xf32>, %c: memref<1x1x64x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %g = memref.get_global @se : memref<1x64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1x64x1xf32>)
  linalg.generic {indexing_maps = [#w, #x, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%g, %b : memref<1x64x64xf32>, memref<1x1x64x1xf32>) outs(%c : memref<1x1x64x1xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
