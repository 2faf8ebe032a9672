// RUN: infer-opt %s --infer-lower-graph-to-linalg | FileCheck %s

// TopK as K selections per row: for each row, k passes, each one loop
// over the row keeping the best element that comes after the previous
// pass's (a number before a NaN, equal values by index), inserted at
// position r. No pass ranks every element against every other.
// CHECK-LABEL: func.func @top_k
// CHECK: %[[ROWS:.+]]:2 = scf.for %[[ROW:.+]] = %{{.+}} to %c3 step
// CHECK: %[[PASSES:.+]]:4 = scf.for %[[R:.+]] = %{{.+}} to %c5 step %{{.+}} iter_args(%[[V:.+]] = %{{.+}}, %[[I:.+]] = %{{.+}}, %[[PREV:.+]] = %{{.+}}, %[[PREVI:.+]] = %c-1)
// CHECK: %[[BEST:.+]]:2 = scf.for %[[J:.+]] = %{{.+}} to %c40 step
// CHECK: %[[XJ:.+]] = tensor.extract %arg0[%[[ROW]], %[[J]]]
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ogt, %[[PREV]], %[[XJ]]
// CHECK: arith.cmpf ogt, %[[XJ]]
// CHECK: scf.yield
// CHECK: tensor.insert %[[BEST]]#0 into %[[V]][%[[ROW]], %[[R]]]
// CHECK: %[[INDEX:.+]] = arith.index_cast %[[BEST]]#1 : index to i64
// CHECK: tensor.insert %[[INDEX]] into %[[I]][%[[ROW]], %[[R]]]
// CHECK-NOT: scf.for
// CHECK: return %[[ROWS]]#0, %[[ROWS]]#1
func.func @top_k(%x: tensor<3x40xf32>, %k: tensor<1xi64>) -> (tensor<3x5xf32>, tensor<3x5xi64>) {
  %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<3x40xf32>, tensor<1xi64>) -> (tensor<3x5xf32>, tensor<3x5xi64>)
  return %v, %i : tensor<3x5xf32>, tensor<3x5xi64>
}
