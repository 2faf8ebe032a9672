// RUN: infer-opt %s --infer-reassociate-row-reductions | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>

// A sum of exponentials along each row (Softmax): the add that takes the
// accumulator is reassociable; the exp is untouched.
// CHECK-LABEL: func.func @row_sum
// CHECK: math.exp %{{.*}} : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
func.func @row_sum(%x: memref<8x128xf32>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x128xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %sum = arith.addf %acc, %e : f32
    linalg.yield %sum : f32
  }
  return
}

// A dot product along the row keeps its contract flag and gains reassoc.
// CHECK-LABEL: func.func @row_dot
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f32
func.func @row_dot(%a: memref<8x128xf32>, %v: memref<128xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a, %v : memref<8x128xf32>, memref<128xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %p = arith.mulf %in, %w fastmath<contract> : f32
    %sum = arith.addf %acc, %p fastmath<contract> : f32
    linalg.yield %sum : f32
  }
  return
}

// Left alone: a sum over the outer loop (the inner one is parallel and
// vectorizes as it is), a max (exact in any order, but not an add or a
// multiply), an f16 sum, and an accumulator read twice.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: reassoc
// CHECK: return
func.func @left_alone(%x: memref<8x128xf32>, %c: memref<128xf32>, %m: memref<8xf32>,
                      %h: memref<8x128xf16>, %hs: memref<8xf16>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<8x128xf32>) outs(%c : memref<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %acc, %in : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x128xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %max = arith.maximumf %acc, %in : f32
    linalg.yield %max : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : memref<8x128xf16>) outs(%hs : memref<8xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %sum = arith.addf %acc, %in : f16
    linalg.yield %sum : f16
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x128xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.mulf %acc, %acc : f32
    %sum = arith.addf %t, %in : f32
    linalg.yield %sum : f32
  }
  return
}
