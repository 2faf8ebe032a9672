// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-reshapes-to-views))' | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK-NOT: memref.reshape
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK: memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
func.func @reshape(%x: memref<2x3x4xf32>, %shape: memref<2xi64>) -> memref<6x4xf32> {
  %0 = memref.reshape %x(%shape) : (memref<2x3x4xf32>, memref<2xi64>) -> memref<6x4xf32>
  return %0 : memref<6x4xf32>
}

// -----

// Rank 0 in and out.
// CHECK-LABEL: func.func @scalar
// CHECK: memref.expand_shape %{{.+}} [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK: memref.collapse_shape %{{.+}} [] : memref<1xf32> into memref<f32>
func.func @scalar(%x: memref<f32>, %y: memref<1x1xf32>, %s1: memref<1xi64>, %s0: memref<0xi64>) -> (memref<1xf32>, memref<f32>) {
  %0 = memref.reshape %x(%s1) : (memref<f32>, memref<1xi64>) -> memref<1xf32>
  %1 = memref.reshape %y(%s0) : (memref<1x1xf32>, memref<0xi64>) -> memref<f32>
  return %0, %1 : memref<1xf32>, memref<f32>
}

// -----

// Dynamic shapes stay (the prepare pass reports them).
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.reshape
func.func @dynamic(%x: memref<?xf32>, %shape: memref<2xi64>) -> memref<?x4xf32> {
  %0 = memref.reshape %x(%shape) : (memref<?xf32>, memref<2xi64>) -> memref<?x4xf32>
  return %0 : memref<?x4xf32>
}
