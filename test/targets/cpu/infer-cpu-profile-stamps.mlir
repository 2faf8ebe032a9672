// RUN: infer-opt %s --infer-cpu-profile-stamps --split-input-file --verify-diagnostics | FileCheck %s

// Three segments: kernel 0 (the fill), kernel 1 (the generic, the copy
// without a mark joining it), kernel 0 again. Kernel 2 has no top-level
// op: its code sits in kernel 1's body, so it is merged there (its FLOPs
// added, its node listed). Four stamps after the 100 planned bytes, at
// 128, grow the workspace to 160 bytes. Bytes per kernel: kernel 0 writes
// %x (64 B) and %v (64 B, each once); kernel 1 reads %v and writes %out
// (64 B each) and the copy's %v is counted once.
// CHECK: module attributes {infer.profile = {kernels = [
// CHECK-SAME: {bytes = 128 : i64, flops = 0.000000e+00 : f64, name = "f", nodes = ["f"], op_types = "Fill"},
// CHECK-SAME: {bytes = 128 : i64, flops = 3.000000e+01 : f64, name = "g", nodes = ["g", "h"], op_types = "Mul+Relu"}],
// CHECK-SAME: offset = 128 : i64, segments = array<i64: 0, 1, 0>}
// CHECK-SAME: infer.workspace_size = 160 : i64
// CHECK-LABEL: func.func @segments
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<160xi8>)
// CHECK: %[[OFF:.+]] = arith.constant 128 : index
// CHECK: %[[STAMPS:.+]] = memref.view %[[WS]][%[[OFF]]][] : memref<160xi8> to memref<4xi64>
// CHECK: memref.view %[[WS]]
// CHECK: %[[T0:.+]] = llvm.call_intrinsic "llvm.readcyclecounter"() : () -> i64
// CHECK: memref.store %[[T0]], %[[STAMPS]][%c0{{.*}}]
// CHECK-NEXT: linalg.fill
// CHECK: llvm.call_intrinsic "llvm.readcyclecounter"
// CHECK: memref.store {{.*}}, %[[STAMPS]][%c1{{.*}}]
// CHECK-NEXT: linalg.generic
// CHECK: memref.copy
// CHECK-NEXT: llvm.call_intrinsic "llvm.readcyclecounter"
// CHECK: memref.store {{.*}}, %[[STAMPS]][%c2{{.*}}]
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: llvm.call_intrinsic "llvm.readcyclecounter"
// CHECK: memref.store {{.*}}, %[[STAMPS]][%c3{{.*}}]
// CHECK-NEXT: return
#k0 = loc(fused<{infer.kernel = 0 : i64, flops = 0.0 : f64}>["f"("Fill")])
#k1 = loc(fused<{infer.kernel = 1 : i64, flops = 16.0 : f64}>["g"("Mul")])
#k2 = loc(fused<{infer.kernel = 2 : i64, flops = 14.0 : f64}>["h"("Relu")])
module attributes {infer.workspace_size = 100 : i64} {
  func.func @segments(%x: memref<16xf32>, %out: memref<16xf32>, %ws: memref<100xi8>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %v = memref.view %ws[%c0][] : memref<100xi8> to memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%v : memref<16xf32>) loc(#k0)
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%v : memref<16xf32>) outs(%out : memref<16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32 loc(#k1)
      %r = arith.maximumf %m, %zero : f32 loc(#k2)
      linalg.yield %r : f32
    } loc(#k1)
    memref.copy %v, %out : memref<16xf32> to memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%x : memref<16xf32>) loc(#k0)
    return
  }
}

// -----

// A module whose workspace was not planned is refused.
// expected-error @below {{--profile needs the planned entry function}}
module {
  func.func @unplanned(%x: memref<16xf32>) {
    return
  }
}
