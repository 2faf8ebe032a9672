// RUN: infer-opt %s --split-input-file --infer-cpu-pack-weights=vector-bits=256 | FileCheck %s

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// A constant 7 x 2 A (through a reshape) with MR = 6 on 256-bit vectors:
// two tiles, [2][K = 2][6], the 6 rows of a tile side by side for each k
// and the second tile's missing rows zero. Both contractions read the
// same weights: they are packed once.
// CHECK: memref.global "private" constant @w : memref<7x1x2xf32>
// CHECK-NEXT: memref.global "private" constant @w_packed : memref<2x2x6xf32> = dense<{{\[}}{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01], [2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01]], {{\[}}[1.300000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.400000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @shared_weights
// CHECK: linalg.generic {{.+}}infer.packed_lhs = {global = @w_packed, operand = 0 : i64, rows = 6 : i64}
// CHECK: linalg.generic {{.+}}infer.packed_lhs = {global = @w_packed, operand = 0 : i64, rows = 6 : i64}
memref.global "private" constant @w : memref<7x1x2xf32> = dense<[[[1.0, 2.0]], [[3.0, 4.0]], [[5.0, 6.0]], [[7.0, 8.0]], [[9.0, 10.0]], [[11.0, 12.0]], [[13.0, 14.0]]]>
func.func @shared_weights(%b: memref<2x16xf32>, %c: memref<7x16xf32>, %d: memref<7x16xf32>) {
  %g = memref.get_global @w : memref<7x1x2xf32>
  %a = memref.collapse_shape %g [[0, 1], [2]] : memref<7x1x2xf32> into memref<7x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<7x2xf32>, memref<2x16xf32>) outs(%c : memref<7x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<7x2xf32>, memref<2x16xf32>) outs(%d : memref<7x16xf32>) {
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

// Left alone: an A that is an argument, a constant A with fewer rows than
// a tile (M = 4 < 6), and a global that is not constant.
// CHECK-NOT: _packed
// CHECK-NOT: infer.packed_lhs
memref.global "private" constant @few : memref<4x2xf32> = dense<1.0>
memref.global "private" @mutable : memref<7x2xf32> = dense<1.0>
func.func @left_alone(%a: memref<7x2xf32>, %b: memref<2x16xf32>, %c: memref<7x16xf32>, %d: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<7x2xf32>, memref<2x16xf32>) outs(%c : memref<7x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %few = memref.get_global @few : memref<4x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%few, %b : memref<4x2xf32>, memref<2x16xf32>) outs(%d : memref<4x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %m = memref.get_global @mutable : memref<7x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%m, %b : memref<7x2xf32>, memref<2x16xf32>) outs(%c : memref<7x16xf32>) {
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

// A batch of two constant 7 x 1 matrices along loop dim t (Winograd's
// terms): each packed as one alone would be, the second's tiles after the
// first's ([2 x 2][K = 1][6]), and the contraction told which dim picks
// the matrix.
// CHECK: memref.global "private" constant @terms_packed : memref<4x1x6xf32> = dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]], {{\[}}[7.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]], {{\[}}[8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01]], {{\[}}[1.400000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]>
// CHECK-LABEL: func.func @batch_of_matrices
// CHECK: linalg.generic {{.+}}infer.packed_lhs = {batch = 0 : i64, global = @terms_packed, operand = 0 : i64, rows = 6 : i64}
memref.global "private" constant @terms : memref<2x7x1xf32> = dense<[[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0]], [[8.0], [9.0], [10.0], [11.0], [12.0], [13.0], [14.0]]]>
func.func @batch_of_matrices(%b: memref<2x1x16xf32>, %c: memref<2x7x16xf32>) {
  %a = memref.get_global @terms : memref<2x7x1xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x7x1xf32>, memref<2x1x16xf32>) outs(%c : memref<2x7x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
