// RUN: infer-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(infer-cuda-emulation-library{output=%t.so})' | FileCheck %s
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=DEFINED
// RUN: llvm-nm -D --undefined-only %t.so | FileCheck %s --check-prefix=CALLS

// The module is left as it was (the PTX is built from it); the library
// holds the kernel for the host and its entry point, and calls the
// emulator for ids, barriers, shuffles (the warp sum) and the workgroup
// buffer.
// CHECK: gpu.module @kernels
// CHECK: gpu.func @k
// CHECK: gpu.barrier
// CHECK: gpu.subgroup_reduce add
// DEFINED-DAG: T k
// DEFINED-DAG: T k__emu
// CALLS-DAG: U infer_emu_barrier
// CALLS-DAG: U infer_emu_id
// CALLS-DAG: U infer_emu_shared
// CALLS-DAG: U infer_emu_shuffle_xor_f32
module {
  gpu.module @kernels {
    gpu.func @k(%x: memref<64xf32>, %y: memref<2xf32>)
        workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %v = memref.load %x[%i] : memref<64xf32>
      memref.store %v, %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = gpu.subgroup_reduce add %w uniform : (f32) -> f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %s, %y[%b] : memref<2xf32>
      }
      gpu.return
    }
  }
}

// -----

module {
  gpu.module @kernels {
    gpu.func @lanes(%y: memref<32xi32>) kernel {
      // expected-error @+1 {{the CUDA emulator cannot run 'gpu.lane_id'}}
      %l = gpu.lane_id
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %l : index to i32
      memref.store %v, %y[%c0] : memref<32xi32>
      gpu.return
    }
  }
}
