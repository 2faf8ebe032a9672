// RUN: infer-opt %s --infer-hls-array-partition | FileCheck %s

// The weights: cyclic by 4 on the dimension the unrolled loop walks.
// CHECK: memref.global "private" constant @w : memref<8x16xf32> = dense<1.000000e+00> {hls.array_partition = [{dim = 1 : i64, factor = 4 : i64, type = "cyclic"}]}
memref.global "private" constant @w : memref<8x16xf32> = dense<1.0>

// The layer's buffer argument; the top-function port (%x) is left alone.
// CHECK-LABEL: func.func private @layer0
// CHECK-SAME: %{{.+}}: memref<8x16xf32> {hls.access = "read"},
// CHECK-SAME: %{{.+}}: memref<8x4xf32> {hls.access = "write", hls.array_partition = [{dim = 1 : i64, factor = 0 : i64, type = "complete"}]}
func.func private @layer0(%x: memref<8x16xf32> {hls.access = "read"}, %t: memref<8x4xf32> {hls.access = "write"}) attributes {hls.layer = ["n (Op)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %w = memref.get_global @w : memref<8x16xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %a = memref.load %x[%i, %j] : memref<8x16xf32>
      %b = memref.load %w[%i, %j] : memref<8x16xf32>
      %p = arith.mulf %a, %b : f32
      memref.store %p, %x[%i, %j] : memref<8x16xf32>
    } {hls.pipeline_ii = 1 : i64, hls.unroll = 4 : i64}
    scf.for %k = %c0 to %c4 step %c1 {
      %a = memref.load %x[%i, %k] : memref<8x16xf32>
      memref.store %a, %t[%i, %k] : memref<8x4xf32>
    } {hls.pipeline_ii = 1 : i64, hls.unroll = 4 : i64}
  }
  return
}

// The buffer behind the argument, in the top function, too.
// CHECK-LABEL: func.func @top
// CHECK: memref.alloc() {hls.array_partition = [{dim = 1 : i64, factor = 0 : i64, type = "complete"}]} : memref<8x4xf32>
func.func @top(%x: memref<8x16xf32>) attributes {hls.top} {
  %t = memref.alloc() : memref<8x4xf32>
  call @layer0(%x, %t) : (memref<8x16xf32>, memref<8x4xf32>) -> ()
  return
}
