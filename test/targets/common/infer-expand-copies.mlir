// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-expand-copies))' | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.+}} : memref<4x4xf32, strided<[8, 1]>>) outs(%{{.+}} : memref<4x4xf32>)
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %s, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}
