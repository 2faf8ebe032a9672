// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-hls-pipeline-loops))' | FileCheck %s --check-prefixes=CHECK,FAST
// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-hls-pipeline-loops{clock-ns=8}))' | FileCheck %s --check-prefixes=CHECK,SLOW

// CHECK-LABEL: func.func private @layer
func.func private @layer(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %s: memref<4xf32>) attributes {hls.layer = ["n (Op)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // Elementwise: a new element every iteration, II=1; the outer loop is
  // not pipelined.
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: arith.negf
  // CHECK: } {hls.pipeline_ii = 1 : i64}
  // CHECK-NEXT: }{{$}}
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %n = arith.negf %v : f32
      memref.store %n, %y[%i, %j] : memref<4x8xf32>
    }
  }
  // Accumulating into one address: the adder's latency (4 cycles at 4 ns,
  // 2 at 8 ns) between iterations.
  // CHECK: arith.addf
  // FAST: } {hls.pipeline_ii = 4 : i64}
  // SLOW: } {hls.pipeline_ii = 2 : i64}
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %acc = memref.load %s[%i] : memref<4xf32>
      %sum = arith.addf %acc, %v : f32
      memref.store %sum, %s[%i] : memref<4xf32>
    }
  }
  // The same through an iter_arg; a multiply-add chain is 3 + 4 cycles.
  // CHECK: arith.mulf
  // FAST: } {hls.pipeline_ii = 7 : i64}
  // SLOW: } {hls.pipeline_ii = 4 : i64}
  %r = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%c0, %j] : memref<4x8xf32>
    %p = arith.mulf %acc, %v : f32
    %sum = arith.addf %p, %v : f32
    scf.yield %sum : f32
  }
  memref.store %r, %s[%c0] : memref<4xf32>
  return
}

// Only layer functions get directives.
// CHECK-LABEL: func.func @top
// CHECK-NOT: hls.pipeline_ii
func.func @top(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %x[%i] : memref<4xf32>
  }
  return
}
