// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// A read in place whose rows lie a multiple of 4 KiB apart (K = 1024) is
// copied a k-block at a time into [tile][k][8] in a 64 KB stack buffer
// (here all 16 rows: 2 tiles x 256 steps x 8), 16 steps of 8 rows per
// iteration: 8 row loads, three stages of 8 shuffles (units of 1, 2 and 4
// floats), 8 stores of 2 steps each. The tiles then broadcast from it.
// CHECK-LABEL: func.func @aliasing
// CHECK: %[[BUF:.+]] = memref.alloca() : memref<16384xf32>
// CHECK: scf.for %[[K0:.+]] = %c0 to %c1024 step %c256
// CHECK: scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK: scf.for %[[K:.+]] = %[[K0]] to %{{.+}} step %c16
// CHECK-COUNT-8: vector.load %arg0[%{{.+}}, %[[K]]] : memref<16x1024xf32>, vector<16xf32>
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK-COUNT-7: vector.shuffle
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23]
// CHECK-COUNT-7: vector.shuffle
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23]
// CHECK-COUNT-7: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-8: vector.store %{{.+}}, %[[BUF]][%{{.+}}] : memref<16384xf32>, vector<16xf32>
// The steps after the last 16 (none here), one element a row each:
// CHECK: scf.for
// CHECK-COUNT-8: memref.store %{{.+}}, %[[BUF]]
// Then the panels, each tile's broadcasts from the copy.
// CHECK: scf.for %{{.+}} = %c0 to %c128 step %c32
// CHECK: scf.for %{{.+}} = %[[K0]] to %{{.+}} step %c4
// CHECK-COUNT-8: memref.load %[[BUF]]
func.func @aliasing(%a: memref<16x1024xf32>, %b: memref<1024x128xf32>, %c: memref<16x128xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1024xf32>, memref<1024x128xf32>) outs(%c : memref<16x128xf32>)
  return
}

// -----

// Rows 4032 bytes apart share no L1 set: A is read in place.
// CHECK-LABEL: func.func @apart
// CHECK-NOT: memref<16384xf32>
// CHECK-NOT: vector.shuffle
func.func @apart(%a: memref<16x1008xf32>, %b: memref<1008x128xf32>, %c: memref<16x128xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1008xf32>, memref<1008x128xf32>) outs(%c : memref<16x128xf32>)
  return
}

// -----

// Too few panels (N = 64: 2) to pay for the copy.
// CHECK-LABEL: func.func @narrow
// CHECK-NOT: memref<16384xf32>
func.func @narrow(%a: memref<16x1024xf32>, %b: memref<1024x64xf32>, %c: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x1024xf32>, memref<1024x64xf32>) outs(%c : memref<16x64xf32>)
  return
}

// -----

// 200 rows: blocks of 64 (8 tiles of 256 steps fill the 16384 floats),
// the last block 8 rows, its tile the last whole one.
// CHECK-LABEL: func.func @blocks
// CHECK: %[[BUF:.+]] = memref.alloca() : memref<16384xf32>
// CHECK: scf.for %[[K0:.+]] = %c0 to %c1024 step %c256
// CHECK: scf.for %[[M0:.+]] = %c0 to %c200 step %c64
// CHECK: %[[END:.+]] = arith.minsi %{{.+}}, %c200 : index
// CHECK: scf.for %{{.+}} = %[[M0]] to %[[END]] step %c8
func.func @blocks(%a: memref<200x1024xf32>, %b: memref<1024x128xf32>, %c: memref<200x128xf32>) {
  linalg.matmul ins(%a, %b : memref<200x1024xf32>, memref<1024x128xf32>) outs(%c : memref<200x128xf32>)
  return
}
