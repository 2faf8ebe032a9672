// RUN: infer-opt %s --split-input-file --infer-cpu-vector-copies=vector-bits=512 --canonicalize | FileCheck %s

// A model input copied into a padded buffer's interior: loops over the
// outer dims, then per row of 37 floats two whole vectors of 16 and the
// last 5 under a mask.
// CHECK-LABEL: func.func @interior
// CHECK-SAME: (%[[X:.+]]: memref<2x3x37xf32>, %[[P:.+]]: memref<2x3x39xf32>)
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[I:.+]] = memref.subview %[[P]][0, 0, 1] [2, 3, 37] [1, 1, 1]
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step
// CHECK: scf.for %[[C:.+]] = %{{.+}} to %{{.+}} step
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %[[C32]] step %[[C16]]
// CHECK: %[[V:.+]] = vector.load %[[X]][%[[N]], %[[C]], %[[J]]] : memref<2x3x37xf32>, vector<16xf32>
// CHECK: vector.store %[[V]], %[[I]][%[[N]], %[[C]], %[[J]]] : memref<2x3x37xf32, strided<[117, 39, 1], offset: 1>>, vector<16xf32>
// CHECK: %[[M:.+]] = vector.constant_mask [5] : vector<16xi1>
// CHECK: %[[T:.+]] = vector.maskedload %[[X]][%[[N]], %[[C]], %[[C32]]], %[[M]]
// CHECK: vector.maskedstore %[[I]][%[[N]], %[[C]], %[[C32]]], %[[M]], %[[T]]
// CHECK-NOT: linalg.copy
func.func @interior(%x: memref<2x3x37xf32>, %p: memref<2x3x39xf32>) {
  %i = memref.subview %p[0, 0, 1] [2, 3, 37] [1, 1, 1] : memref<2x3x39xf32> to memref<2x3x37xf32, strided<[117, 39, 1], offset: 1>>
  linalg.copy ins(%x : memref<2x3x37xf32>) outs(%i : memref<2x3x37xf32, strided<[117, 39, 1], offset: 1>>)
  return
}

// -----

// Bytes: 64 lanes a vector; sizes known only at run time.
// CHECK-LABEL: func.func @bytes
// CHECK: vector.load %{{.+}} : memref<?x?xi8>, vector<64xi8>
// CHECK: scf.if
// CHECK: vector.maskedstore
func.func @bytes(%x: memref<?x?xi8>, %y: memref<?x?xi8>) {
  linalg.copy ins(%x : memref<?x?xi8>) outs(%y : memref<?x?xi8>)
  return
}

// -----

// A row that is not contiguous (every second element) stays a linalg.copy.
// CHECK-LABEL: func.func @strided_rows
// CHECK: linalg.copy
// CHECK-NOT: vector.load
func.func @strided_rows(%x: memref<4x8xf32>, %p: memref<4x16xf32>) {
  %s = memref.subview %p[0, 0] [4, 8] [1, 2] : memref<4x16xf32> to memref<4x8xf32, strided<[16, 2]>>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%s : memref<4x8xf32, strided<[16, 2]>>)
  return
}
