// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-cpu-winograd-kernels{vector-bits=256 parallel=true}),canonicalize)' | FileCheck %s

// The two transforms infer-cpu-winograd marks, on buffers: two channels
// and two filters, a 4x20 output plane (2 rows of 10 tiles: on 8-lane
// vectors a full vector of tiles and a masked 2). The kernels compute the
// F(2x2, 3x3) transforms the marker names (Winograd.h); the bodies here
// are placeholders.
//
// The input transform, the channels in parallel: per row of the tile,
// two loads of 16 columns (from 2 tx and 2 tx + 2) whose even and odd
// lanes are its 4 taps; 16 terms stored a term apart. The last 2 tiles
// read the 6 and 4 columns left in the padded row of 22 and store 2 lanes
// of each term.
// CHECK-LABEL: func.func @plane
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c2) step (%c1)
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK: %[[W0:.+]] = vector.load %{{.+}} : memref<264xf32, strided<[1]>>, vector<16xf32>
// CHECK: vector.shuffle %[[W0]], %[[W0]] [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: vector.shuffle %[[W0]], %[[W0]] [1, 3, 5, 7, 9, 11, 13, 15]
// CHECK-COUNT-16: vector.store %{{.+}} : memref<640xf32, strided<[1]>>, vector<8xf32>
// CHECK: vector.constant_mask [6] : vector<16xi1>
// CHECK: vector.constant_mask [4] : vector<16xi1>
// CHECK-COUNT-16: vector.maskedstore %{{.+}}, %{{.+}}, %{{.+}} : memref<640xf32, strided<[1]>>, vector<8xi1>, vector<8xf32>
//
// The output transform, the filters in parallel: 16 terms loaded (a term
// apart), each output row's two vectors interleaved into 16 consecutive
// outputs; the last 2 tiles store 4 of them.
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c2) step (%c1)
// CHECK-COUNT-16: vector.load %{{.+}} : memref<640xf32, strided<[1]>>, vector<8xf32>
// (canonicalized from a shuffle [0, 8, 1, 9, ...]); the second output row
// 20 elements further.
// CHECK: vector.interleave %{{.+}}, %{{.+}} : vector<8xf32> -> vector<16xf32>
// CHECK: vector.store %{{.+}} : memref<160xf32, strided<[1]>>, vector<16xf32>
// CHECK: vector.interleave
// CHECK: arith.addi %{{.+}}, %c20
// CHECK: vector.store %{{.+}} : memref<160xf32, strided<[1]>>, vector<16xf32>
// CHECK: vector.constant_mask [4] : vector<16xi1>
// CHECK: vector.maskedstore
// CHECK-NOT: linalg.generic
#t0 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 0, d4 * 2 + 0)>
#t1 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 0, d4 * 2 + 1)>
#t2 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 0, d4 * 2 + 2)>
#t3 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 0, d4 * 2 + 3)>
#t4 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 1, d4 * 2 + 0)>
#t5 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 1, d4 * 2 + 1)>
#t6 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 1, d4 * 2 + 2)>
#t7 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 1, d4 * 2 + 3)>
#t8 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 2, d4 * 2 + 0)>
#t9 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 2, d4 * 2 + 1)>
#t10 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 2, d4 * 2 + 2)>
#t11 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 2, d4 * 2 + 3)>
#t12 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 3, d4 * 2 + 0)>
#t13 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 3, d4 * 2 + 1)>
#t14 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 3, d4 * 2 + 2)>
#t15 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 3, d4 * 2 + 3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#m0 = affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0, d1, d2 * 10 + d4)>
#m1 = affine_map<(d0, d1, d2, d3, d4, d5) -> (1, d0, d1, d2 * 10 + d4)>
#m2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (2, d0, d1, d2 * 10 + d4)>
#m3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (3, d0, d1, d2 * 10 + d4)>
#m4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (4, d0, d1, d2 * 10 + d4)>
#m5 = affine_map<(d0, d1, d2, d3, d4, d5) -> (5, d0, d1, d2 * 10 + d4)>
#m6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (6, d0, d1, d2 * 10 + d4)>
#m7 = affine_map<(d0, d1, d2, d3, d4, d5) -> (7, d0, d1, d2 * 10 + d4)>
#m8 = affine_map<(d0, d1, d2, d3, d4, d5) -> (8, d0, d1, d2 * 10 + d4)>
#m9 = affine_map<(d0, d1, d2, d3, d4, d5) -> (9, d0, d1, d2 * 10 + d4)>
#m10 = affine_map<(d0, d1, d2, d3, d4, d5) -> (10, d0, d1, d2 * 10 + d4)>
#m11 = affine_map<(d0, d1, d2, d3, d4, d5) -> (11, d0, d1, d2 * 10 + d4)>
#m12 = affine_map<(d0, d1, d2, d3, d4, d5) -> (12, d0, d1, d2 * 10 + d4)>
#m13 = affine_map<(d0, d1, d2, d3, d4, d5) -> (13, d0, d1, d2 * 10 + d4)>
#m14 = affine_map<(d0, d1, d2, d3, d4, d5) -> (14, d0, d1, d2 * 10 + d4)>
#m15 = affine_map<(d0, d1, d2, d3, d4, d5) -> (15, d0, d1, d2 * 10 + d4)>
#id6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>

func.func @plane(%x: memref<1x2x6x22xf32>, %v: memref<16x1x2x2x10xf32>, %m: memref<16x1x2x20xf32>, %y: memref<1x2x2x2x10x2xf32>) {
  linalg.generic {indexing_maps = [#t0, #t1, #t2, #t3, #t4, #t5, #t6, #t7, #t8, #t9, #t10, #t11, #t12, #t13, #t14, #t15, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>, memref<1x2x6x22xf32>) outs(%v : memref<16x1x2x2x10xf32>) attrs = {infer.winograd = "input"} {
  ^bb0(%i0: f32, %i1: f32, %i2: f32, %i3: f32, %i4: f32, %i5: f32, %i6: f32, %i7: f32, %i8: f32, %i9: f32, %i10: f32, %i11: f32, %i12: f32, %i13: f32, %i14: f32, %i15: f32, %out: f32):
    linalg.yield %i0 : f32
  }
  linalg.generic {indexing_maps = [#m0, #m1, #m2, #m3, #m4, #m5, #m6, #m7, #m8, #m9, #m10, #m11, #m12, #m13, #m14, #m15, #id6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m, %m : memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>, memref<16x1x2x20xf32>) outs(%y : memref<1x2x2x2x10x2xf32>) attrs = {infer.epilogue_host, infer.winograd = "output"} {
  ^bb0(%i0: f32, %i1: f32, %i2: f32, %i3: f32, %i4: f32, %i5: f32, %i6: f32, %i7: f32, %i8: f32, %i9: f32, %i10: f32, %i11: f32, %i12: f32, %i13: f32, %i14: f32, %i15: f32, %out: f32):
    linalg.yield %i0 : f32
  }
  return
}
