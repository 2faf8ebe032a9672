// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-contraction-kernels{vector-bits=256 k-block=2}),canonicalize)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-contraction-kernels{vector-bits=512}),canonicalize)' | FileCheck %s --check-prefix=AVX512
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-contraction-kernels{parallel=true}),canonicalize)' | FileCheck %s --check-prefix=PARALLEL

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// M = 13: two tiles of 6 rows and one of 1; N = 36: two 16-lane panels
// and a 4-column remainder in masked 8-lane vectors; K = 3 in blocks of 2.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c16
// CHECK: scf.for %[[K0:.+]] = %c0 to %c3 step %c2
// CHECK: scf.for %{{.+}} = %c0 to %c12 step %c6
// CHECK-COUNT-6: vector.load %arg2{{.+}} : memref<13x36xf32>, vector<16xf32>
// CHECK: scf.for %{{.+}} = %[[K0]] to %{{.+}} step %c1 iter_args(
// CHECK: vector.load %arg1{{.+}} : memref<3x36xf32>, vector<16xf32>
// CHECK: memref.load %arg0
// CHECK: vector.broadcast {{.+}} : f32 to vector<16xf32>
// CHECK-COUNT-6: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-6: vector.store {{.+}} : memref<13x36xf32>, vector<16xf32>
// The one remaining row:
// CHECK: vector.load %arg2[%c12, %{{.+}}] : memref<13x36xf32>, vector<16xf32>
// The remainder columns:
// CHECK: vector.constant_mask [4] : vector<8xi1>
// CHECK: vector.maskedload %arg2
// CHECK: vector.fma {{.+}} : vector<8xf32>
// CHECK: vector.maskedstore %arg2
// With parallel=true the full panels (n0 = 0, 16) are one scf.parallel;
// the remainder panel follows it.
// PARALLEL-LABEL: func.func @matmul
// PARALLEL: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c16)
// PARALLEL: vector.fma
// PARALLEL: scf.reduce
// PARALLEL: vector.maskedload
// AVX512-LABEL: func.func @matmul
// AVX512: vector.constant_mask [4] : vector<16xi1>
// AVX512: vector.fma {{.+}} : vector<16xf32>
func.func @matmul(%a: memref<13x3xf32>, %b: memref<3x36xf32>, %c: memref<13x36xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<13x3xf32>, memref<3x36xf32>) outs(%c : memref<13x36xf32>) {
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

// Not taken: B's innermost dimension is the reduction (a transposed
// operand), so rows of B are not contiguous along n.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK: linalg.generic
// CHECK-NOT: vector.fma
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
