// RUN: infer-opt %s --split-input-file --infer-cpu-fuse-channel-loops | FileCheck %s

// A kernel over chunks of 8 rows (inside its unit batch loop) and the
// next one over the same 32 rows one at a time, a view between them:
// the second runs inside the first, over each chunk's rows, after the
// chunk's own work; the view moves before both.
// CHECK-LABEL: func.func @fused
// CHECK: memref.subview
// CHECK: scf.parallel (%[[M0:.+]]) = (%c0) to (%c32) step (%c8) {
// CHECK: memref.store %{{.+}}, %arg0
// CHECK-NOT: scf.parallel
// CHECK: %[[NEXT:.+]] = arith.addi %[[M0]], %{{.+}}
// CHECK: %[[END:.+]] = arith.minsi %[[NEXT]], %c32
// CHECK: scf.for %[[M:.+]] = %[[M0]] to %[[END]] step %{{.+}} {
// CHECK: memref.load %arg0[%[[M]]]
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[M]]]
// CHECK: }
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK-NOT: infer.fuse
// CHECK: return
func.func @fused(%a: memref<32xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    scf.parallel (%m0) = (%c0) to (%c32) step (%c8) {
      %end = arith.addi %m0, %c8 : index
      scf.for %m = %m0 to %end step %c1 {
        memref.store %one, %a[%m] : memref<32xf32>
      }
      scf.reduce
    } {infer.fuse_next = 8 : index}
  }
  %v = memref.subview %b[32] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 32>>
  scf.parallel (%m) = (%c0) to (%c32) step (%c1) {
    %x = memref.load %a[%m] : memref<32xf32>
    memref.store %x, %v[%m] : memref<32xf32, strided<[1], offset: 32>>
    scf.reduce
  } {infer.fused_channels}
  return
}

// -----

// A store between the two: they stay apart, unmarked.
// CHECK-LABEL: func.func @store_between
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c8)
// CHECK: memref.store %{{.+}}, %arg1[%c0]
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c1)
// CHECK-NOT: infer.fuse
// CHECK: return
func.func @store_between(%a: memref<32xf32>, %b: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%m0) = (%c0) to (%c32) step (%c8) {
    memref.store %one, %a[%m0] : memref<32xf32>
    scf.reduce
  } {infer.fuse_next = 8 : index}
  memref.store %one, %b[%c0] : memref<32xf32>
  scf.parallel (%m) = (%c0) to (%c32) step (%c1) {
    %x = memref.load %a[%m] : memref<32xf32>
    memref.store %x, %b[%m] : memref<32xf32>
    scf.reduce
  } {infer.fused_channels}
  return
}

// -----

// The second loop over other rows (16 of the 32): apart.
// CHECK-LABEL: func.func @other_rows
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c32) step (%c8)
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c16) step (%c1)
// CHECK-NOT: infer.fuse
// CHECK: return
func.func @other_rows(%a: memref<32xf32>, %b: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%m0) = (%c0) to (%c32) step (%c8) {
    memref.store %one, %a[%m0] : memref<32xf32>
    scf.reduce
  } {infer.fuse_next = 8 : index}
  scf.parallel (%m) = (%c0) to (%c16) step (%c1) {
    %x = memref.load %a[%m] : memref<32xf32>
    memref.store %x, %b[%m] : memref<32xf32>
    scf.reduce
  } {infer.fused_channels}
  return
}
