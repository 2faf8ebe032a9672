// RUN: infer-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(infer-cuda-map-parallel-loops{block-size=128}))' | FileCheck %s

// A 4x100 loop nest: flattened to 400 points, blocks of 128 threads.
// CHECK-LABEL: func.func @nest
// CHECK: %[[N:.+]] = arith.muli %{{.+}}, %c100{{.*}} : index
// CHECK: %[[BLOCK:.+]] = arith.muli %{{.+}}, %c128 : index
// CHECK: scf.parallel (%[[B:.+]]) = (%{{.+}}) to (%[[N]]) step (%[[BLOCK]])
// CHECK: scf.parallel (%[[T:.+]]) = (%{{.+}}) to (%[[BLOCK]])
// CHECK: arith.cmpi ult, %{{.+}}, %[[N]]
// CHECK: scf.if
// CHECK: arith.negf
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @nest(%x: memref<4x100xf32>, %y: memref<4x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c100) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x100xf32>
    %n = arith.negf %v : f32
    memref.store %n, %y[%i, %j] : memref<4x100xf32>
  }
  return
}

// -----

// A full reduction (a sequential loop) runs as a one-thread kernel; fewer
// points than a block make a smaller block.
// CHECK-LABEL: func.func @reduction
// CHECK-NOT: memref.store
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.store
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @reduction(%x: memref<8xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %s[] : memref<f32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.addf %a, %v : f32
    memref.store %r, %s[] : memref<f32>
  }
  return
}

// -----

func.func @dynamic(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{a loop bound known only at run time}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
  }
  return
}
