// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-contract-reductions))' | FileCheck %s

// A matmul left to the loops: generalized, its multiply-add may fuse.
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// Flags already there are kept.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK: arith.mulf %{{.+}}, %{{.+}} fastmath<nnan,contract> : f32
// CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
func.func @sum_of_squares(%x: memref<16xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%v: f32, %s: f32):
    %sq = arith.mulf %v, %v fastmath<nnan> : f32
    %sum = arith.addf %s, %sq : f32
    linalg.yield %sum : f32
  }
  return
}

// An elementwise multiply-add (two ONNX nodes, Mul then Add) rounds twice.
// CHECK-LABEL: func.func @elementwise
// CHECK: arith.mulf %{{[^ ]+}}, %{{[^ ]+}} : f32
// CHECK: arith.addf %{{[^ ]+}}, %{{[^ ]+}} : f32
func.func @elementwise(%x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    %a = arith.addf %m, %o : f32
    linalg.yield %a : f32
  }
  return
}

// A product used twice is not fused: its rounded value is needed.
// CHECK-LABEL: func.func @product_reused
// CHECK: arith.mulf %{{[^ ]+}}, %{{[^ ]+}} : f32
// CHECK: arith.addf %{{[^ ]+}}, %{{[^ ]+}} : f32
func.func @product_reused(%x: memref<16xf32>, %acc: memref<f32>, %out: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<16xf32>) outs(%acc, %out : memref<f32>, memref<16xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sq = arith.mulf %v, %v : f32
    %sum = arith.addf %s, %sq : f32
    linalg.yield %sum, %sq : f32, f32
  }
  return
}

// A reduction yielding `a * b + c` whose c is an input element, not the
// accumulator, is an elementwise multiply-add: it rounds twice.
// CHECK-LABEL: func.func @not_accumulated
// CHECK: arith.mulf %{{[^ ]+}}, %{{[^ ]+}} : f32
// CHECK: arith.addf %{{[^ ]+}}, %{{[^ ]+}} : f32
func.func @not_accumulated(%x: memref<16xf32>, %y: memref<16xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x, %y : memref<16xf32>, memref<16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%v: f32, %w: f32, %s: f32):
    %m = arith.mulf %v, %v : f32
    %a = arith.addf %m, %w : f32
    linalg.yield %a : f32
  }
  return
}
