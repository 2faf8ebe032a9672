// RUN: infer-opt %s --split-input-file --infer-cpu-pad-borders | FileCheck %s

// A 1x2x4x5 source padded by 1 in H and 2 in W (a tensor.pad after
// bufferization): only the border is filled, in four slabs (rows above
// and below over every column, then columns left and right over the
// interior rows); the copy stays.
// CHECK-LABEL: func.func @pad
// CHECK-NOT: linalg.map
// CHECK: %[[TOP:.+]] = memref.subview %[[BUF:.+]][0, 0, 0, 0] [1, 2, 1, 9] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO:.+]] : f32) outs(%[[TOP]]
// CHECK: %[[BOTTOM:.+]] = memref.subview %[[BUF]][0, 0, 5, 0] [1, 2, 1, 9] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[BOTTOM]]
// CHECK: %[[LEFT:.+]] = memref.subview %[[BUF]][0, 0, 1, 0] [1, 2, 4, 2] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[LEFT]]
// CHECK: %[[RIGHT:.+]] = memref.subview %[[BUF]][0, 0, 1, 7] [1, 2, 4, 2] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[RIGHT]]
// CHECK-NOT: linalg.fill
// CHECK: memref.copy
func.func @pad(%src: memref<1x2x4x5xf32>, %buf: memref<1x2x6x9xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.map outs(%buf : memref<1x2x6x9xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %buf[0, 0, 1, 2] [1, 2, 4, 5] [1, 1, 1, 1] : memref<1x2x6x9xf32> to memref<1x2x4x5xf32, strided<[108, 54, 9, 1], offset: 11>>
  memref.copy %src, %interior : memref<1x2x4x5xf32> to memref<1x2x4x5xf32, strided<[108, 54, 9, 1], offset: 11>>
  return
}

// -----

// Something between the fill and the copy reads the buffer: left alone.
// CHECK-LABEL: func.func @read_between
// CHECK: linalg.map
func.func @read_between(%src: memref<4xf32>, %buf: memref<6xf32>, %out: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.map outs(%buf : memref<6xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  memref.copy %buf, %out : memref<6xf32> to memref<6xf32>
  %interior = memref.subview %buf[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %src, %interior : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  return
}
