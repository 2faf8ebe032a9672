// RUN: infer-opt %s --infer-cuda-merge-kernel-modules=name=net_kernels | FileCheck %s

// Two outlined modules, each with a kernel named @k and a copy of @w: one
// module, kernels named after their old modules, one @w.
// CHECK: gpu.module @net_kernels {
// CHECK-NEXT: gpu.func @a(
// CHECK: memref.global "private" constant @w
// CHECK-NOT: memref.global
// CHECK: gpu.func @b(
// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @net_kernels::@a
// CHECK: gpu.launch_func @net_kernels::@b
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
    memref.global "private" constant @w : memref<4xf32> = dense<1.0>
  }
  gpu.module @b {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
    memref.global "private" constant @w : memref<4xf32> = dense<1.0>
  }
  func.func @host(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
