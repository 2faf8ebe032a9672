// RUN: infer-opt %s --split-input-file --infer-checks-to-status | FileCheck %s

// Each assert becomes a store of its number into the status argument
// appended to the entry function; the messages are kept in order.
// CHECK: module attributes {infer.errors = ["node 'g' (Gather): first", "node 'h' (Gather): second"]}
// CHECK-LABEL: func.func @m_main
// CHECK-SAME: %[[WS:.+]]: memref<64xi8>, %[[STATUS:.+]]: memref<i32>)
// CHECK-NOT: cf.assert
// CHECK: %[[BAD:.+]] = arith.xori %{{.+}}, %true
// CHECK: scf.if %[[BAD]] {
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: memref.store %[[ONE]], %[[STATUS]][] : memref<i32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK: arith.constant 2 : i32
// CHECK: memref.store %{{.+}}, %[[STATUS]][]
func.func @m_main(%x: memref<4xf32>, %y: memref<4xf32>, %ws: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  %ok = arith.cmpf oge, %v, %zero : f32
  cf.assert %ok, "node 'g' (Gather): first"
  scf.for %i = %c0 to %c4 step %c1 {
    %w = memref.load %x[%i] : memref<4xf32>
    %ok2 = arith.cmpf olt, %w, %zero : f32
    cf.assert %ok2, "node 'h' (Gather): second"
    memref.store %w, %y[%i] : memref<4xf32>
  }
  return
}

// -----

// No checks: the status argument is still there, the message list empty.
// CHECK: module attributes {infer.errors = []}
// CHECK: func.func @n_main(%{{.+}}: memref<4xf32>, %{{.+}}: memref<i32>)
func.func @n_main(%x: memref<4xf32>) {
  return
}
