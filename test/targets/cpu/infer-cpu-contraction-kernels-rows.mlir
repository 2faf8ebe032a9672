// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256 k-block=2},canonicalize)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s --check-prefix=AVX512
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256},canonicalize)' | FileCheck %s --check-prefix=AVX2

// Depthwise convolutions in infer-cpu-contraction-kernels: one output row
// at a time.

// A depthwise convolution: one row per channel (M = 1), A is the second
// input, K = 9 in one block: the reduction is unrolled (constant offsets
// into the input); with k-block=2 it stays a loop. The output rows are a
// batch loop inside the channels' (infer-cpu-contraction-kernels makes
// every N dim but the innermost one a batch loop when M = 1 and K is that
// short), so each vector lies in one output row: one plain load per
// vector, no runs planned at run time. The rows go 2 at a time, both
// summed (18 FMAs) before either is stored: their windows share input
// rows, whose loads LLVM then merges.
// AVX512-LABEL: func.func @depthwise
// AVX512: scf.for %[[G:.+]] = %c0 to %c4 step %c1
// AVX512: scf.for %[[OH:.+]] = %c0 to %c16 step %c2
// AVX512-NOT: scf.for {{.+}} iter_args
// AVX512-NOT: vector.create_mask
// AVX512: vector.load %{{.+}} : memref<1296xf32, strided<[1]>>, vector<16xf32>
// AVX512-NOT: vector.store
// AVX512-COUNT-18: vector.fma
// AVX512-NOT: vector.fma
// AVX512-COUNT-2: vector.store
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.for {{.+}} iter_args
// CHECK: vector.fma
func.func @depthwise(%x: memref<1x4x1x18x18xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x16x16xf32>) {
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
  return
}

// -----

// Output rows of 2 (under a quarter vector): the plane stays one N dim,
// read by gathers whose offsets hold the channel's. The channels (the
// innermost batch loop here) go two at a time, and the second channel's
// gathers take their offsets from its own channel, not the first's.
// AVX512-LABEL: func.func @depthwise_gathered_pairs
// AVX512: scf.for %[[C:.+]] = %c0 to %c4 step %c2
// AVX512: arith.muli %[[C]], %c36
// AVX512-COUNT-9: vector.gather
// AVX512: %[[NEXT:.+]] = arith.addi %[[C]], %c1
// AVX512: arith.muli %[[NEXT]], %c36
// AVX512-COUNT-9: vector.gather
func.func @depthwise_gathered_pairs(%x: memref<1x4x1x6x6xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x2x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x6x6xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x2x2xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A stride-2 depthwise window (output rows of 8 columns on AVX2): each
// 8-lane vector of a row of B is one masked load of 15 consecutive input
// elements, its even lanes taken: no gather.
// CHECK-LABEL: func.func @depthwise_stride2
// CHECK-NOT: vector.gather
// CHECK: vector.maskedload {{.+}} : memref<1156xf32{{.*}}>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.shuffle {{.+}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK-NOT: vector.gather
// CHECK: vector.fma
func.func @depthwise_stride2(%x: memref<1x4x1x17x17xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x17x17xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Output rows of 12 (not whole vectors: 8 + 4 lanes on AVX2): per row,
// each tap is one load and one load masked to the 4 valid lanes (the
// elements after them may be past the input); nothing is planned per
// vector at run time and nothing gathered. (As one 144-column plane, most
// vectors would span two output rows: two masked loads each, their masks
// made at run time.)
// AVX2-LABEL: func.func @depthwise_rows
// AVX2-NOT: vector.gather
// AVX2-NOT: vector.create_mask
// AVX2: scf.for %[[G:.+]] = %c0 to %c4 step %c1
// AVX2: scf.for %[[OH:.+]] = %c0 to %c12 step %c2
// AVX2: %[[ROW:.+]] = arith.muli %[[OH]], %c14 : index
// AVX2: %[[AT:.+]] = arith.addi %{{.+}}, %[[ROW]] : index
// AVX2: vector.load %{{.+}}[%[[AT]]] : memref<784xf32, strided<[1]>>, vector<8xf32>
// AVX2: %[[NEXT:.+]] = arith.addi %[[AT]], %c8 : index
// AVX2: %[[MASK:.+]] = vector.constant_mask [4] : vector<8xi1>
// AVX2: vector.maskedload %{{.+}}[%[[NEXT]]], %[[MASK]]
// AVX2-COUNT-8: vector.fma
// AVX2-NOT: vector.gather
// AVX2-NOT: vector.create_mask
// AVX2: vector.maskedstore %arg2
func.func @depthwise_rows(%x: memref<1x4x1x14x14xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x12x12xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh + kh, ow + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x14x14xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x12x12xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Stride 2, output rows of 10 (8 + 2 lanes on AVX2): the second vector
// loads only the 3 elements its 2 lanes take (2 * 2 - 1), the first 15.
// Rows 2 at a time.
// AVX2-LABEL: func.func @depthwise_stride2_rows
// AVX2-NOT: vector.gather
// AVX2: scf.for %{{.+}} = %c0 to %c10 step %c2
// AVX2: vector.constant_mask [15] : vector<16xi1>
// AVX2: vector.shuffle {{.+}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// AVX2: vector.constant_mask [3] : vector<16xi1>
// AVX2: vector.shuffle {{.+}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// AVX2: vector.fma
func.func @depthwise_stride2_rows(%x: memref<1x4x1x21x21xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x10x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, c, kh, kw, oh, ow) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%x, %w : memref<1x4x1x21x21xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x10x10xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
