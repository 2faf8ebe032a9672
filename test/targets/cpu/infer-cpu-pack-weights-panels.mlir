// RUN: infer-opt %s --split-input-file --infer-cpu-pack-weights=vector-bits=512 --mlir-elide-resource-strings-if-larger=16 | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-pack-weights{vector-bits=512},infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' --mlir-elide-resource-strings-if-larger=16 | FileCheck %s --check-prefix=KERNEL

// A constant B (K x N, read as rows) whose panels the usual tiles would
// copy at run time (M = 40: 5 tiles of 8) is packed at compile time into
// [ceil(N / 32)][K][32], columns past N zero: here K = 1, N = 33, so the
// second panel holds column 32 and 31 zeros.
// CHECK: memref.global "private" constant @w_panels : memref<2x1x32xf32> = dense<{{\[\[\[}}1.000000e+00, 2.000000e+00, {{.+}}, 3.200000e+01]], {{\[\[}}3.300000e+01, 0.000000e+00, {{.+}}, 0.000000e+00]]]>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic
// CHECK-SAME: infer.packed_rhs = {global = @w_panels, operand = 1 : i64, width = 32 : i64}
// The kernels read B's panel p at [p, k, 0]; nothing is packed at run time.
// KERNEL-LABEL: func.func @matmul
// KERNEL-NOT: memref.alloca
// KERNEL: %[[PANELS:.+]] = memref.get_global @w_panels : memref<2x1x32xf32>
// KERNEL: vector.load %[[PANELS]][%{{.+}}, %{{.+}}, %c0] : memref<2x1x32xf32>, vector<32xf32>
memref.global "private" constant @w : memref<1x33xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0]]>
func.func @matmul(%a: memref<40x1xf32>, %c: memref<40x33xf32>) {
  %w = memref.get_global @w : memref<1x33xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<40x1xf32>, memref<1x33xf32>) outs(%c : memref<40x33xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 4 tiles (M = 32) read B's rows in place: no panels.
// CHECK-LABEL: func.func @few_tiles
// CHECK-NOT: infer.packed_rhs
memref.global "private" constant @v : memref<4x64xf32> = dense<1.0>
func.func @few_tiles(%a: memref<32x4xf32>, %c: memref<32x64xf32>) {
  %v = memref.get_global @v : memref<4x64xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %v : memref<32x4xf32>, memref<4x64xf32>) outs(%c : memref<32x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B not a constant: packed per panel at run time as before.
// CHECK-LABEL: func.func @activations
// CHECK-NOT: infer.packed_rhs
func.func @activations(%a: memref<32x4xf32>, %b: memref<4x64xf32>, %c: memref<32x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<32x4xf32>, memref<4x64xf32>) outs(%c : memref<32x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product (M = 1) whose constant B outgrows L2 (1024 x
// 320 floats, 1.25 MiB) streams B from memory: packed at compile time
// into panels of 4 vectors (256 bytes of a row: [5][K][64]), each read as
// one sequential stream.
// CHECK: memref.global "private" constant @wide_panels : memref<5x1024x64xf32> = dense_resource<panels>
// CHECK-LABEL: func.func @streamed_gemv
// CHECK: infer.packed_rhs = {global = @wide_panels, operand = 1 : i64, width = 64 : i64}
// KERNEL-LABEL: func.func @streamed_gemv
// KERNEL: %[[PANELS:.+]] = memref.get_global @wide_panels : memref<5x1024x64xf32>
// KERNEL: vector.load %[[PANELS]][%{{.+}}, %{{.+}}, %c0] : memref<5x1024x64xf32>, vector<64xf32>
// KERNEL-NOT: memref.prefetch
// KERNEL: return
memref.global "private" constant @wide : memref<1024x320xf32> = dense<1.0>
func.func @streamed_gemv(%a: memref<1x1024xf32>, %c: memref<1x320xf32>) {
  %w = memref.get_global @wide : memref<1024x320xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<1x1024xf32>, memref<1024x320xf32>) outs(%c : memref<1x320xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The same with a B that stays in L2 (64 x 256 floats, a recurrent
// layer's weights read at every step): read in place, rows of 16 vectors.
// CHECK-LABEL: func.func @cached_gemv
// CHECK-NOT: infer.packed_rhs
// KERNEL-LABEL: func.func @cached_gemv
// KERNEL: %[[W:.+]] = memref.get_global @narrow : memref<64x256xf32>
// KERNEL: vector.load %[[W]][%{{.+}}, %{{.+}}] : memref<64x256xf32>, vector<256xf32>
memref.global "private" constant @narrow : memref<64x256xf32> = dense<1.0>
func.func @cached_gemv(%a: memref<1x64xf32>, %c: memref<1x256xf32>) {
  %w = memref.get_global @narrow : memref<64x256xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<1x64xf32>, memref<64x256xf32>) outs(%c : memref<1x256xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// N = 768 would make 3 panels of 16 vectors, which two threads take 2:1
// (a GRU's recurrent product); panels of 12 vectors make 4.
// KERNEL-LABEL: func.func @even_panels
// KERNEL: %[[W:.+]] = memref.get_global @gates : memref<64x768xf32>
// KERNEL: vector.load %[[W]][%{{.+}}, %{{.+}}] : memref<64x768xf32>, vector<192xf32>
// KERNEL-NOT: vector<256xf32>
memref.global "private" constant @gates : memref<64x768xf32> = dense<1.0>
func.func @even_panels(%a: memref<1x64xf32>, %c: memref<1x768xf32>) {
  %w = memref.get_global @gates : memref<64x768xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<1x64xf32>, memref<64x768xf32>) outs(%c : memref<1x768xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
