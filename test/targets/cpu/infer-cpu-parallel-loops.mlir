// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-cpu-parallel-loops{min-iterations=1024 chunks=4}))' | FileCheck %s
// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-cpu-parallel-loops{min-iterations=1024 chunks=32}))' | FileCheck %s --check-prefix=WIDE

// A large elementwise op: split along its first parallel dimension of size
// >= 2 (dim 1, 64 -> 4 chunks of 16) into an scf.parallel.
// CHECK-LABEL: func.func @relu
// CHECK: scf.parallel (%[[I:.+]]) = (%c0{{.*}}) to (%c64) step (%c16{{.*}})
// CHECK: memref.subview %{{.+}}[0, %[[I]], 0] [1, 16, 32] [1, 1, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : memref<1x16x32xf32, strided<[2048, 32, 1], offset: ?>>)
// CHECK: scf.reduce
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @relu(%x: memref<1x64x32xf32>, %y: memref<1x64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x64x32xf32>) outs(%y : memref<1x64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// A copy of 3 channels (a model input into a padded buffer). With 4
// chunks, 3 tiles of dim 1 are enough (at least half); with 32 they would
// leave threads idle (2 and 1 units on two threads), so dim 2 is split
// too: 11 tiles of 6 rows (ceil(32 / 3) wanted), 33 in all.
// CHECK-LABEL: func.func @few_channels
// CHECK: scf.parallel (%[[C:.+]]) = (%c0{{.*}}) to (%c3) step (%c1{{.*}})
// CHECK: memref.subview %{{.+}}[0, %[[C]], 0, 0] [1, 1, 64, 32] [1, 1, 1, 1]
// WIDE-LABEL: func.func @few_channels
// WIDE: scf.parallel (%[[C:.+]], %[[R:.+]]) = (%c0{{.*}}, %c0{{.*}}) to (%c3, %c64) step (%c1{{.*}}, %c6{{.*}})
// WIDE: memref.subview %{{.+}}[0, %[[C]], %[[R]], 0] [1, 1, %{{.+}}, 32] [1, 1, 1, 1]
// WIDE: linalg.copy
func.func @few_channels(%x: memref<1x3x64x32xf32>, %y: memref<1x3x64x32xf32>) {
  linalg.copy ins(%x : memref<1x3x64x32xf32>) outs(%y : memref<1x3x64x32xf32>)
  return
}

// Too small to be worth a parallel region: unchanged.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.parallel
// CHECK: linalg.generic
func.func @small(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// An op inside a loop stays serial.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: linalg.generic
func.func @in_loop(%x: memref<1x64x32xf32>, %y: memref<1x64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x : memref<1x64x32xf32>) outs(%y : memref<1x64x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// 256 iterations (under 1024) of a body with an exponential count as 256 x
// 17: split. The same count of a subtraction alone stays serial.
// CHECK-LABEL: func.func @exponentials
// CHECK: scf.parallel
// CHECK: math.exp
// CHECK-LABEL: func.func @subtractions
// CHECK-NOT: scf.parallel
// CHECK: return
#row = affine_map<(d0, d1) -> (d0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exponentials(%x: memref<8x32xf32>, %m: memref<8x1xf32>, %y: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<8x32xf32>, memref<8x1xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  return
}
func.func @subtractions(%x: memref<8x32xf32>, %m: memref<8x1xf32>, %y: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<8x32xf32>, memref<8x1xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  }
  return
}
