// RUN: infer-opt %s --split-input-file --infer-cpu-transpose-rhs | FileCheck %s

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// X . W^T with W a function argument: W is transposed once, at the top
// of the function (it is loop-invariant), and the contraction inside the
// loop reads the copy as (k, n).
// CHECK-DAG: #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @hidden_projection
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4x6xf32>
// CHECK-NEXT: %[[WT:.+]] = linalg.transpose ins(%arg1 : tensor<6x4xf32>) outs(%[[E]] : tensor<4x6xf32>) permutation = [1, 0]
// CHECK: scf.for
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[KN]], #{{.+}}]{{.*}} ins(%{{.+}}, %[[WT]] : tensor<2x4xf32>, tensor<4x6xf32>)
func.func @hidden_projection(%h0: tensor<2x4xf32>, %w: tensor<6x4xf32>, %init: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %t = %c0 to %c3 step %c1 iter_args(%acc = %init) -> tensor<2x6xf32> {
    %y = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%h0, %w : tensor<2x4xf32>, tensor<6x4xf32>) outs(%acc : tensor<2x6xf32>) {
    ^bb0(%l: f32, %r: f32, %o: f32):
      %p = arith.mulf %l, %r : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<2x6xf32>
    scf.yield %y : tensor<2x6xf32>
  }
  return %r : tensor<2x6xf32>
}

// -----

// A constant W (here through a static slice) is transposed at compile
// time: no linalg.transpose remains.
// CHECK-LABEL: func.func @constant_weights
// CHECK: %[[WT:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[WT]] : tensor<1x3xf32>, tensor<3x2xf32>)
func.func @constant_weights(%x: tensor<1x3xf32>, %init: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %all = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : tensor<2x2x3xf32>
  %w = tensor.extract_slice %all[0, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<2x2x3xf32> to tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x3xf32>, tensor<2x3xf32>) outs(%init : tensor<1x2xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// B already indexed (k, n): nothing to do.
// CHECK-LABEL: func.func @row_major
// CHECK-NOT: linalg.transpose
func.func @row_major(%a: tensor<2x4xf32>, %b: tensor<4x6xf32>, %init: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x4xf32>, tensor<4x6xf32>) outs(%init : tensor<2x6xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
