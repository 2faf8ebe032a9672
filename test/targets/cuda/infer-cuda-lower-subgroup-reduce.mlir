// RUN: infer-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(infer-cuda-lower-subgroup-reduce))' | FileCheck %s

// A warp max: five butterfly steps (xor 1, 2, 4, 8, 16 over 32 lanes), each
// folded with the same op.
// CHECK-LABEL: gpu.func @warp_max
// CHECK-NOT: gpu.subgroup_reduce
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i32
// CHECK-DAG: %[[W:.+]] = arith.constant 32 : i32
// CHECK: %[[S0:.+]], %{{.+}} = gpu.shuffle xor %arg0, %[[C1]], %[[W]] : f32
// CHECK: %[[M0:.+]] = arith.maxnumf %arg0, %[[S0]] : f32
// CHECK-COUNT-3: gpu.shuffle xor
// CHECK: %[[S4:.+]], %{{.+}} = gpu.shuffle xor %[[M3:.+]], %[[C16]], %[[W]] : f32
// CHECK: %[[M4:.+]] = arith.maxnumf %[[M3]], %[[S4]] : f32
// CHECK: memref.store %[[M4]]
gpu.module @kernels {
  gpu.func @warp_max(%x: f32, %y: memref<f32>) kernel {
    %r = gpu.subgroup_reduce maxnumf %x uniform : (f32) -> f32
    memref.store %r, %y[] : memref<f32>
    gpu.return
  }
}

// -----

// An integer sum.
// CHECK-LABEL: gpu.func @warp_sum_i32
// CHECK-COUNT-5: gpu.shuffle xor %{{.+}} : i32
// CHECK-NOT: gpu.shuffle
gpu.module @kernels {
  gpu.func @warp_sum_i32(%x: i32, %y: memref<i32>) kernel {
    %r = gpu.subgroup_reduce add %x uniform : (i32) -> i32
    memref.store %r, %y[] : memref<i32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @wide(%x: f64, %y: memref<f64>) kernel {
    // expected-error @+1 {{a warp reduction of 'f64' that cannot be lowered to shuffles}}
    %r = gpu.subgroup_reduce add %x uniform : (f64) -> f64
    memref.store %r, %y[] : memref<f64>
    gpu.return
  }
}
