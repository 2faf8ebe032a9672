// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg | FileCheck %s

// MaxPool 5x5 stride 1 (YOLO's SPPF): the max along each row of 5 (a 1x5
// window over x padded with -inf, all padded rows kept), then along each
// column of 5 of that: 10 inputs read per output instead of 25, the same
// maxima.
// CHECK-LABEL: func.func @separable
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK: %[[ROW:.+]] = tensor.empty() : tensor<1x5xf32>
// CHECK: %[[ROWS:.+]] = linalg.generic {{.+}} ins(%[[P]], %[[ROW]] : tensor<1x2x12x12xf32>, tensor<1x5xf32>) outs(%{{.+}} : tensor<1x2x12x8xf32>)
// CHECK: arith.maximumf
// CHECK: %[[COLUMN:.+]] = tensor.empty() : tensor<5x1xf32>
// CHECK: %[[Y:.+]] = linalg.generic {{.+}} ins(%[[ROWS]], %[[COLUMN]] : tensor<1x2x12x8xf32>, tensor<5x1xf32>) outs(%{{.+}} : tensor<1x2x8x8xf32>)
// CHECK: arith.maximumf
// CHECK: return %[[Y]]
func.func @separable(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  %0, %1 = graph.max_pool %x {kernel_shape = array<i64: 5, 5>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x2x8x8xf32>) -> (tensor<1x2x8x8xf32>, none)
  return %0 : tensor<1x2x8x8xf32>
}

// -----

// Over dynamic sizes the first pass keeps the padded rows' run-time count.
// CHECK-LABEL: func.func @separable_dynamic
// CHECK: tensor.empty() : tensor<1x3xf32>
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x?x?xf32>)
// CHECK: tensor.empty() : tensor<3x1xf32>
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x?x?xf32>)
func.func @separable_dynamic(%x: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  %0, %1 = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x?x?xf32>) -> (tensor<1x2x?x?xf32>, none)
  return %0 : tensor<1x2x?x?xf32>
}

// -----

// 3x3 stride 2 (resnet18's stem): a row pass over every padded row would
// read 3 * 2 + 3 = 9 inputs per output, as the window does; 2x2 reads 4
// either way. Both keep one window.
// CHECK-LABEL: func.func @windows
// CHECK: tensor.empty() : tensor<3x3xf32>
// CHECK: tensor.empty() : tensor<2x2xf32>
// CHECK-NOT: tensor.empty() : tensor<1x3xf32>
func.func @windows(%x: tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0, %1 = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, none)
  %2, %3 = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, none)
  return %0, %2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
