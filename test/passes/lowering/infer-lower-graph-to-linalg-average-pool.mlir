// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// AveragePool: the window sums over x padded with zeros (3x3: the sums
// along rows of 3, then along columns of 3 of those: 6 additions per
// output, not 9), divided by how many window elements lie inside x.
// Those counts depend on the position only, so they are pooled over one
// 1 x 1 x H x W plane of ones and the division broadcasts them over every
// image and channel (pooling ones of x's whole shape doubled the layer's
// work).
// CHECK-LABEL: func.func @average_pool
// CHECK: %[[ROWS:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<2x8x7x7xf32>, tensor<1x3xf32>) outs(%{{.+}} : tensor<2x8x7x5xf32>)
// CHECK: arith.addf
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[ROWS]], %{{.+}} : tensor<2x8x7x5xf32>, tensor<3x1xf32>) outs(%{{.+}} : tensor<2x8x5x5xf32>)
// CHECK: arith.addf
// CHECK: %[[ONES:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x5x5xf32>)
// CHECK: tensor.pad %[[ONES]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[COUNT:.+]] = linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<1x1x5x5xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SUM]], %[[COUNT]] : tensor<2x8x5x5xf32>, tensor<1x1x5x5xf32>)
// CHECK: arith.divf
// CHECK-NOT: tensor<2x8x7x7xf32>
func.func @average_pool(%x: tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32> {
  %0 = graph.average_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// Dynamic batch and plane: the plane of ones takes x's run-time H and W.
// CHECK-LABEL: func.func @average_pool_dynamic
// CHECK: arith.addf
// CHECK: %[[H:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x8x?x?xf32>
// CHECK: %[[W:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x8x?x?xf32>
// CHECK: %[[E:.+]] = tensor.empty(%[[H]], %[[W]]) : tensor<1x1x?x?xf32>
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1x1x?x?xf32>)
// CHECK: arith.divf
func.func @average_pool_dynamic(%x: tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32> {
  %0 = graph.average_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}
