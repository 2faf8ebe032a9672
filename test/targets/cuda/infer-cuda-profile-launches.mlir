// RUN: infer-opt %s --infer-cuda-profile-launches --split-input-file --verify-diagnostics | FileCheck %s

// Four launches, four segments:
// - @fill has no mark anywhere: it initialises the next marked launch's
//   output, so it runs kernel 0 (the MatMul);
// - @mm is marked kernel 0 on its launch; its body holds the Relu
//   (kernel 1, which has no launch of its own), merged into kernel 0:
//   FLOPs 64 + 16, both nodes listed;
// - @copy's launch has no mark, its body's first op does: kernel 2, a
//   copy (its role shown after the op types);
// - @tail has no mark and no marked launch follows: the previous one's.
// Bytes are each kernel's distinct buffer arguments: kernel 0 %out and %a
// (64 B each; %out twice, counted once), kernel 2 %out and %b (64 + 32).
// The stamps' offset is 0: events time CUDA launches.
// CHECK: module attributes {gpu.container_module, infer.profile = {kernels = [
// CHECK-SAME: {bytes = 128 : i64, flops = 8.000000e+01 : f64, name = "mm", nodes = ["mm", "relu"], op_types = "MatMul+Relu"},
// CHECK-SAME: {bytes = 96 : i64, flops = 8.000000e+00 : f64, name = "t", nodes = ["t"], op_types = "Transpose (copy)"}],
// CHECK-SAME: offset = 0 : i64, segments = array<i64: 0, 0, 1, 1>}
#k0 = loc(fused<{infer.kernel = 0 : i64, flops = 64.0 : f64}>["mm"("MatMul")])
#k1 = loc(fused<{infer.kernel = 1 : i64, flops = 16.0 : f64}>["relu"("Relu")])
#k2 = loc(fused<{infer.kernel = 2 : i64, flops = 8.0 : f64, role = "copy"}>["t"("Transpose")])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %out[%c0] : memref<16xf32>
      gpu.return
    }
    gpu.func @mm(%a: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<16xf32>
      %r = arith.maximumf %x, %x : f32 loc(#k1)
      memref.store %r, %out[%c0] : memref<16xf32>
      gpu.return
    }
    gpu.func @copy(%out: memref<16xf32>, %b: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %out[%c0] : memref<16xf32> loc(#k2)
      memref.store %x, %b[%c0] : memref<8xf32>
      gpu.return
    }
    gpu.func @tail(%b: memref<8xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>, %out: memref<16xf32>, %b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16xf32>)
    gpu.launch_func @kernels::@mm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>, %out : memref<16xf32>) loc(#k0)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16xf32>, %b : memref<8xf32>)
    gpu.launch_func @kernels::@tail blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    return
  }
}

// -----

// A module without launches has nothing to profile.
// expected-error @below {{--profile: the module has no kernel launches}}
module {
  func.func @empty() {
    return
  }
}

// -----

// The kernels' bodies must still be there (before gpu-module-to-binary).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @main(%b: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{the launched kernel's body is not in the module}}
    gpu.launch_func @kernels::@tail blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xf32>)
    return
  }
}
