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

// -----

// A row sum of 4 rows x 1000: one warp per row, 4 warps (rows) per block of
// 128 threads. Each lane folds every 32nd element from its lane index, the
// warp combines the lanes, and lane 0 adds the total to the output.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.parallel (%[[B:.+]]) = (%{{.+}}) to (%[[P:.+]]) step (%[[W:.+]]) {
// CHECK: scf.parallel (%[[Y:.+]], %[[L:.+]]) = (%{{.+}}, %{{.+}}) to (%[[W]], %[[C32:.+]]) step
// CHECK: %[[PT:.+]] = arith.addi %[[B]], %[[Y]]
// CHECK: arith.cmpi ult, %[[PT]], %[[P]]
// CHECK: %[[PART:.+]] = scf.for %[[K:.+]] = %[[L]] to %{{.+}} step %[[C32]] iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32)
// CHECK: %[[V:.+]] = memref.load %arg0
// CHECK: %[[S:.+]] = arith.addf %[[V]], %[[ACC]]
// CHECK: scf.yield %[[S]]
// CHECK: %[[T:.+]] = gpu.subgroup_reduce add %[[PART]] uniform
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[L]], %{{.+}}
// CHECK: scf.if %[[FIRST]]
// CHECK: %[[O:.+]] = memref.load %arg1
// CHECK: %[[N:.+]] = arith.addf %[[T]], %[[O]]
// CHECK: memref.store %[[N]], %arg1
// CHECK: processor = thread_y
// CHECK-SAME: processor = thread_x
// CHECK: processor = block_x
func.func @row_sum(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c1000 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x1000xf32>
      %a = memref.load %y[%i] : memref<4xf32>
      %r = arith.addf %v, %a : f32
      memref.store %r, %y[%i] : memref<4xf32>
    }
  }
  return
}


// -----

// A convolution-like nest over 2x3x8 points and 16x3 taps: the points are
// collapsed, the two reduction loops flattened (tap = t % 3, channel = t / 3)
// and the op between them sunk into the innermost body.
// CHECK-LABEL: func.func @conv
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[C48:.+]] step %{{.+}} iter_args
// CHECK-DAG: arith.remui %[[T]], %[[C3:.+]] : index
// CHECK-DAG: arith.divui %[[T]], %[[C3]] : index
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.subgroup_reduce add
func.func @conv(%x: memref<2x16x10xf32>, %w: memref<3x16x3xf32>, %y: memref<2x3x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%n, %o, %p) = (%c0, %c0, %c0) to (%c2, %c3, %c8) step (%c1, %c1, %c1) {
    scf.for %c = %c0 to %c16 step %c1 {
      %cc = arith.addi %c, %c0 : index
      scf.for %k = %c0 to %c3 step %c1 {
        %q = arith.addi %p, %k : index
        %v = memref.load %x[%n, %cc, %q] : memref<2x16x10xf32>
        %u = memref.load %w[%o, %cc, %k] : memref<3x16x3xf32>
        %m = arith.mulf %v, %u : f32
        %a = memref.load %y[%n, %o, %p] : memref<2x3x8xf32>
        %r = arith.addf %a, %m : f32
        memref.store %r, %y[%n, %o, %p] : memref<2x3x8xf32>
      }
    }
  }
  return
}


// -----

// A full max reduction at the top level (with its init store) becomes one
// warp; lane 0 runs the init store before folding in the total.
// CHECK-LABEL: func.func @total_max
// CHECK: %[[LOW:.+]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[ID:.+]]) -> (f32)
// CHECK: arith.maxnumf
// CHECK: %[[T:.+]] = gpu.subgroup_reduce maxnumf
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[LOW]], %arg1[]
// CHECK-NEXT: %[[O:.+]] = memref.load %arg1[]
// CHECK-NEXT: %[[M:.+]] = arith.maxnumf %[[O]], %[[T]]
// CHECK-NEXT: memref.store %[[M]], %arg1[]
func.func @total_max(%x: memref<4096xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %low = arith.constant 0xFF800000 : f32
  memref.store %low, %s[] : memref<f32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<4096xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.maxnumf %a, %v : f32
    memref.store %r, %s[] : memref<f32>
  }
  return
}


// -----

// Enough points to fill a GPU: one thread per point.
// CHECK-LABEL: func.func @many_points
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: processor = thread_x
func.func @many_points(%x: memref<40000x64xf32>, %y: memref<40000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 40000 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %k] : memref<40000x64xf32>
      %a = memref.load %y[%i] : memref<40000xf32>
      %r = arith.addf %v, %a : f32
      memref.store %r, %y[%i] : memref<40000xf32>
    }
  }
  return
}


// -----

// The nest reads the buffer it accumulates into: one thread per point.
// CHECK-LABEL: func.func @reads_output
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: processor = thread_x
func.func @reads_output(%x: memref<4x64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x64xf32>
      %o = memref.load %y[%k] : memref<64xf32>
      %m = arith.mulf %v, %o : f32
      %a = memref.load %y[%i] : memref<64xf32>
      %r = arith.addf %m, %a : f32
      memref.store %r, %y[%i] : memref<64xf32>
    }
  }
  return
}

// -----

// A size read from an input in straight-line code and used by a later
// kernel: the later kernel loads and computes it again (kernels share
// values only through memory), and the first copy, now unused, is dropped.
// CHECK-LABEL: func.func @shared_value
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: %[[N:.+]] = memref.load %arg0[] : memref<i64>
// CHECK: %[[I:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK: arith.addi %[[I]]
// CHECK: memref.store
func.func @shared_value(%n: memref<i64>, %y: memref<8xindex>, %t: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %v = memref.load %n[] : memref<i64>
  %i = arith.index_cast %v : i64 to index
  memref.store %zero, %t[] : memref<f32>
  scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
    %s = arith.addi %i, %j : index
    memref.store %s, %y[%j] : memref<8xindex>
  }
  return
}

// -----

// The value comes from a buffer the code writes again before the kernel
// that would need it: computing it there would read the new contents.
func.func @changed_value(%x: memref<f32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{a value computed here is used outside the device code that computes it}}
  %v = memref.load %x[] : memref<f32>
  memref.store %one, %x[] : memref<f32>
  scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
    memref.store %v, %y[%j] : memref<8xf32>
  }
  return
}
