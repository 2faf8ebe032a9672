// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cuda-tile-contractions{min-blocks=4}),cse)' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cuda-tile-contractions{min-blocks=1000000 warp-max-points=0}),cse)' | FileCheck %s --check-prefix=SMALL

// A 100x70 by 70x200 MatMul: 64 x 64 tiles (4 x 2 blocks make min-blocks),
// 16 x 16 threads, both operand slices staged in padded workgroup memory.
// The left operand is contiguous along k (k = flat % 16), the right along
// n (n = flat % 64); the sums are added to the output inside its bounds.
// With a min-blocks no tile size reaches, 16 x 16 tiles are used (there are
// more outputs than warp-max-points).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: gpu.launch blocks(%[[BX:.+]], %[[BY:.+]], %{{.+}}) in (%{{.+}} = %[[C4]], %{{.+}} = %[[C2]], %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %[[TY:.+]], %{{.+}}) in (%{{.+}} = %[[C16]], %{{.+}} = %[[C16]], %{{.+}} = %{{.+}}) workgroup(%[[YS:.+]] : memref<64x17xf32, #gpu.address_space<workgroup>>, %[[XS:.+]] : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %[[K0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: %[[K:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK: %[[ROW:.+]] = arith.divui
// CHECK: scf.if
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.+}}, %[[YS]][%[[ROW]], %[[K]]]
// CHECK-COUNT-3: memref.store %{{.+}}, %[[YS]]
// CHECK: %[[N:.+]] = arith.remui %{{.+}}, %{{.+}} : index
// CHECK: %[[KR:.+]] = arith.divui
// CHECK: memref.load %arg1
// CHECK: memref.store %{{.+}}, %[[XS]][%[[KR]], %[[N]]]
// CHECK-COUNT-3: memref.store %{{.+}}, %[[XS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-4: memref.load %[[YS]]
// CHECK-COUNT-16: arith.addf
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.store %{{.+}}, %arg2
// CHECK: gpu.terminator
// SMALL-LABEL: func.func @matmul
// SMALL: workgroup(%{{.+}} : memref<16x17xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<16x17xf32, #gpu.address_space<workgroup>>)
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%x: memref<100x70xf32>, %w: memref<70x200xf32>, %y: memref<100x200xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<100x70xf32>, memref<70x200xf32>) outs(%y : memref<100x200xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A convolution (stride 1, no padding) as an implicit GEMM: the input holds
// the output's innermost dim, so (n, oh, ow) is the x side (block_x, 2*8*8
// = 128 points) and the filters the y side (32 of them); the reduction is
// (c, kh, kw) = 8*3*3. Each operand is read through its own map.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: gpu.launch blocks({{.+}}) in (%{{[a-z0-9_]+}} = %[[C4]], %{{[a-z0-9_]+}} = %[[C1]], %{{[a-z0-9_]+}} = %[[C1]])
// CHECK-SAME: workgroup(%{{[a-z0-9_]+}} : memref<32x17xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9_]+}} : memref<16x33xf32, #gpu.address_space<workgroup>>)
// CHECK: affine.apply #{{.+}}(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
// CHECK: memref.load %arg1
// CHECK: memref.load %arg0
// CHECK: gpu.barrier
#in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#flt = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
func.func @conv(%x: memref<2x8x10x10xf32>, %w: memref<32x8x3x3xf32>, %y: memref<2x32x8x8xf32>) {
  linalg.generic {indexing_maps = [#in, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<2x8x10x10xf32>, memref<32x8x3x3xf32>) outs(%y : memref<2x32x8x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Attention scores: 4 heads (the batch, block_z) of 64x32 by (64x32)^T.
// CHECK-LABEL: func.func @heads
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: gpu.launch blocks({{.+}}) in (%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %[[C4]])
#q = affine_map<(h, i, j, d) -> (h, i, d)>
#kt = affine_map<(h, i, j, d) -> (h, j, d)>
#s = affine_map<(h, i, j, d) -> (h, i, j)>
func.func @heads(%q: memref<4x64x32xf32>, %k: memref<4x64x32xf32>, %s: memref<4x64x64xf32>) {
  linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<4x64x32xf32>, memref<4x64x32xf32>) outs(%s : memref<4x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not tiled: a side shorter than 16, and a max instead of a sum.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.maximumf
// SMALL-LABEL: func.func @untouched
// SMALL-NOT: gpu.launch
func.func @untouched(%x: memref<8x64xf32>, %w: memref<64x200xf32>, %y: memref<8x200xf32>, %z: memref<64x64xf32>, %v: memref<64x200xf32>, %u: memref<64x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<8x64xf32>, memref<64x200xf32>) outs(%y : memref<8x200xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%z, %v : memref<64x64xf32>, memref<64x200xf32>) outs(%u : memref<64x200xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.maximumf %out, %m : f32
    linalg.yield %s : f32
  }
  return
}
