// RUN: infer-opt %s --split-input-file --infer-hls-outline-layers | FileCheck %s

// Two ONNX nodes, two layers; the buffer between them stays in the top
// function, constants are cloned into the layer that uses them.
// CHECK-LABEL: func.func private @layer0_relu1
// CHECK-SAME: (%{{.+}}: memref<4xf32> {hls.access = "read"}, %{{.+}}: memref<4xf32> {hls.access = "write"})
// CHECK-SAME: attributes {hls.layer = ["relu1 (Relu)"]}
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf
// CHECK-LABEL: func.func private @layer1_add_1
// CHECK-SAME: attributes {hls.layer = ["add/1 (Add)"]}
// CHECK: arith.addf
// CHECK-LABEL: func.func @model
// CHECK-SAME: attributes {hls.top}
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: call @layer0_relu1(%arg0, %[[BUF]])
// CHECK-NEXT: call @layer1_add_1(%[[BUF]], %arg1)
// CHECK-NEXT: return
func.func @model(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %buf[%i] : memref<4xf32>
  } loc("relu1"("Relu"))
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %buf[%i] : memref<4xf32>
    %r = arith.addf %v, %v : f32
    memref.store %r, %y[%i] : memref<4xf32>
  } loc("add/1"("Add"))
  return
}

// -----

// A scalar the next node uses keeps both nodes in one layer.
// CHECK-LABEL: func.func private @layer0_a
// CHECK-SAME: hls.layer = ["a (Neg)", "b (Mul)"]
// CHECK-NOT: func.func private
// CHECK-LABEL: func.func @escape
// CHECK: call @layer0_a
// CHECK-NOT: call
func.func @escape(%x: memref<f32>, %y: memref<f32>) {
  %v = memref.load %x[] : memref<f32> loc("a"("Neg"))
  %n = arith.negf %v : f32 loc("a"("Neg"))
  %m = arith.mulf %n, %n : f32 loc("b"("Mul"))
  memref.store %m, %y[] : memref<f32> loc("b"("Mul"))
  return
}
