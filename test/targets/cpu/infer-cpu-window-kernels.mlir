// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-window-kernels{vector-bits=256 parallel=true}),canonicalize)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-window-kernels{vector-bits=256 max-window=4}))' | FileCheck %s --check-prefix=SMALL

// A 3x3 stride-2 max pool over a padded 21x21 image, output rows of 10
// (8 + 2 lanes on AVX2). The fill of the output seeds the accumulators;
// the channels run in parallel, the rows in order; per vector, each of
// the 9 taps is one wide load of 15 elements (3 for the 2-lane tail, so
// nothing past the image is read) with its even lanes taken, combined in
// registers in four chains (taps 0, 4, 8; 1, 5; 2, 6; 3, 7: a max takes
// them in any order) joined at the end, and one store.
// CHECK-LABEL: func.func @max_pool_stride2
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: %[[X:.+]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1764]
// CHECK: %[[Y:.+]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [400]
// CHECK: scf.parallel (%[[C:.+]]) = (%c0) to (%c4) step (%c1)
// CHECK: scf.for %[[OH:.+]] = %c0 to %c10 step %c1
// CHECK: %[[M15:.+]] = vector.constant_mask [15] : vector<16xi1>
// CHECK: %[[P:.+]] = vector.maskedload %[[X]][%{{.+}}], %[[M15]]
// CHECK: %[[E:.+]] = vector.shuffle %[[P]], %[[P]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// (The fill's -inf folds away in each chain's first tap: 5 maxima of
// taps, then 3 joining the chains.)
// CHECK: %[[C0:.+]] = arith.maximumf %[[E]], %{{.+}} : vector<8xf32>
// CHECK: %[[C1:.+]] = arith.maximumf %{{.+}} : vector<8xf32>
// CHECK: %[[C2:.+]] = arith.maximumf %{{.+}} : vector<8xf32>
// CHECK: %[[C3:.+]] = arith.maximumf %{{.+}} : vector<8xf32>
// CHECK: %[[C0B:.+]] = arith.maximumf %[[C0]], %{{.+}} : vector<8xf32>
// CHECK: %[[J01:.+]] = arith.maximumf %[[C0B]], %[[C1]] : vector<8xf32>
// CHECK: %[[J23:.+]] = arith.maximumf %[[C2]], %[[C3]] : vector<8xf32>
// CHECK: %[[ALL:.+]] = arith.maximumf %[[J01]], %[[J23]] : vector<8xf32>
// CHECK-NEXT: vector.store %[[ALL]]
// CHECK-SAME: , %[[Y]][%{{.+}}] : memref<400xf32, strided<[1]>>, vector<8xf32>
// CHECK: %[[TAIL:.+]] = vector.constant_mask [2] : vector<8xi1>
// CHECK: vector.constant_mask [3] : vector<16xi1>
// CHECK-COUNT-8: arith.maximumf %{{.+}} : vector<8xf32>
// CHECK: vector.maskedstore %[[Y]][%{{.+}}], %[[TAIL]]
// SMALL-LABEL: func.func @max_pool_stride2
// SMALL: linalg.fill
// SMALL: linalg.generic
func.func @max_pool_stride2(%x: memref<1x4x21x21xf32>, %y: memref<1x4x10x10xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  %window = memref.alloc() : memref<3x3xf32>
  linalg.fill ins(%lowest : f32) outs(%y : memref<1x4x10x10xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<1x4x21x21xf32>, memref<3x3xf32>) outs(%y : memref<1x4x10x10xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A 2x2 stride-1 sum (an average pool before its division) with no fill
// before it: each vector starts from the output's elements, and each tap
// is one load (whole vectors: output rows of 16).
// CHECK-LABEL: func.func @sum_pool_stride1
// CHECK: scf.parallel
// CHECK: vector.load %{{.+}} : memref<1024xf32, strided<[1]>>, vector<8xf32>
// CHECK-COUNT-4: arith.addf %{{.+}} : vector<8xf32>
// CHECK: vector.store
// CHECK-NOT: vector.maskedstore
// CHECK: return
func.func @sum_pool_stride1(%x: memref<4x17x17xf32>, %y: memref<4x16x16xf32>) {
  %window = memref.alloc() : memref<2x2xf32>
  linalg.generic {indexing_maps = [affine_map<(c, oh, ow, kh, kw) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (kh, kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<4x17x17xf32>, memref<2x2xf32>) outs(%y : memref<4x16x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not taken: the output is not indexed by the parallel dims in order (a
// reduction into a transposed output).
// CHECK-LABEL: func.func @transposed_output
// CHECK: linalg.generic
func.func @transposed_output(%x: memref<4x10x10xf32>, %y: memref<10x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(c, o, k) -> (c, o, k)>,
                                   affine_map<(c, o, k) -> (o, c)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<4x10x10xf32>) outs(%y : memref<10x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not taken: i1 elements (a buffer of i1 holds a byte per element, a
// vector of i1 a bit).
// CHECK-LABEL: func.func @bool_window
// CHECK: linalg.generic
func.func @bool_window(%x: memref<4x10x10xi1>, %y: memref<4x9x9xi1>) {
  %window = memref.alloc() : memref<2x2xi1>
  linalg.generic {indexing_maps = [affine_map<(c, oh, ow, kh, kw) -> (c, oh + kh, ow + kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (kh, kw)>,
                                   affine_map<(c, oh, ow, kh, kw) -> (c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<4x10x10xi1>, memref<2x2xi1>) outs(%y : memref<4x9x9xi1>) {
  ^bb0(%in: i1, %w: i1, %out: i1):
    %o = arith.ori %out, %in : i1
    linalg.yield %o : i1
  }
  return
}
