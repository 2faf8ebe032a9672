// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-cuda-sink-weights))' | FileCheck %s

memref.global "private" constant @w : memref<2x3xf32> = dense<1.0>

// The weight and its view move into the kernel; the host keeps nothing the
// kernel reads through a host address.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch
// CHECK-NEXT: %[[W:.+]] = memref.get_global @w : memref<2x3xf32>
// CHECK-NEXT: %[[FLAT:.+]] = memref.collapse_shape %[[W]]
// CHECK: memref.load %[[FLAT]]
func.func @f(%y: memref<6xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w : memref<2x3xf32>
  %flat = memref.collapse_shape %w [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %flat[%c0] : memref<6xf32>
    memref.store %v, %y[%c0] : memref<6xf32>
    gpu.terminator
  }
  return
}
