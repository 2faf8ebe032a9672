// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-hls-unroll-loops{parallelism=4}))' | FileCheck %s
// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-hls-unroll-loops))' | FileCheck %s --check-prefix=NONE

// NONE-NOT: hls.unroll
// CHECK-LABEL: func.func private @layer
func.func private @layer(%x: memref<16xf32>, %y: memref<6xf32>, %s: memref<f32>) attributes {hls.layer = ["n (Op)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  // 16 iterations: unrolled by 4.
  // CHECK: } {hls.pipeline_ii = 1 : i64, hls.unroll = 4 : i64}
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %x[%i] : memref<16xf32>
  } {hls.pipeline_ii = 1 : i64}
  // 6 iterations: the largest divisor of 6 that is at most 4.
  // CHECK: } {hls.pipeline_ii = 1 : i64, hls.unroll = 3 : i64}
  scf.for %i = %c0 to %c6 step %c1 {
    %v = memref.load %y[%i] : memref<6xf32>
    memref.store %v, %y[%i] : memref<6xf32>
  } {hls.pipeline_ii = 1 : i64}
  // A recurrence (II > 1) is not unrolled.
  // CHECK: } {hls.pipeline_ii = 4 : i64}
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %x[%i] : memref<16xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.addf %a, %v : f32
    memref.store %r, %s[] : memref<f32>
  } {hls.pipeline_ii = 4 : i64}
  return
}
