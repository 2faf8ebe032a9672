// RUN: infer-opt %s --infer-reassociate-row-reductions | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>

// A sum of exponentials along each row (Softmax): the add that takes the
// accumulator is reassociable; the exp is untouched. The row's sum is
// loaded once, carried through the row's loop and stored once.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: memref<8x128xf32>, %[[S:.*]]: memref<8xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[INIT:.*]] = memref.load %[[S]][%[[I]]]
// CHECK: %[[SUM:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NEXT: %[[IN:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[IN]] : f32
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ACC]], %[[E]] fastmath<reassoc> : f32
// CHECK-NEXT: scf.yield %[[ADD]]
// CHECK: memref.store %[[SUM]], %[[S]][%[[I]]]
// CHECK-NOT: linalg.generic
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
// CHECK: iter_args
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

// A sum over a plane (a global average pool's H and W, contiguous): one
// loop over the plane's 1152 elements, in the same order.
// CHECK-LABEL: func.func @plane_sum
// CHECK-SAME: (%[[X:.*]]: memref<1x8x12x96xf32>, %[[S:.*]]: memref<1x8x1x1xf32>)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : memref<1x8x12x96xf32> into memref<1x8x1152xf32>
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[INIT:.*]] = memref.load %[[S]][%[[N]], %[[C]], %[[Z0:.*]], %[[Z1:.*]]]
// CHECK: %[[SUM:.*]] = scf.for %[[R:.*]] = %{{.*}} to %[[END:.*]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NEXT: %[[IN:.*]] = memref.load %[[FLAT]][%[[N]], %[[C]], %[[R]]]
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[ACC]], %[[IN]] fastmath<reassoc> : f32
// CHECK: memref.store %[[SUM]], %[[S]][%[[N]], %[[C]], %[[Z0]], %[[Z1]]]
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#pooled = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
func.func @plane_sum(%x: memref<1x8x12x96xf32>, %s: memref<1x8x1x1xf32>) {
  linalg.generic {indexing_maps = [#nchw, #pooled], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<1x8x12x96xf32>) outs(%s : memref<1x8x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %acc, %in : f32
    linalg.yield %sum : f32
  }
  return
}

// A plane whose rows are apart in memory (a view of a padded buffer)
// cannot be one loop: the generic stays, with its sum reassociable.
// CHECK-LABEL: func.func @strided_plane_sum
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
func.func @strided_plane_sum(%x: memref<1x8x12x96xf32, strided<[10000, 1250, 100, 1]>>, %s: memref<1x8x1x1xf32>) {
  linalg.generic {indexing_maps = [#nchw, #pooled], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<1x8x12x96xf32, strided<[10000, 1250, 100, 1]>>) outs(%s : memref<1x8x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %acc, %in : f32
    linalg.yield %sum : f32
  }
  return
}

// Left alone as to reassociation: a sum over the outer loop (the inner one
// is parallel and vectorizes as it is; it stays a generic), a max (exact
// in any order, but not an add or a multiply), an f16 sum, and an
// accumulator read twice. The last three still carry their element.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: reassoc
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK-NOT: reassoc
// CHECK: arith.maximumf
// CHECK-NEXT: scf.yield
// CHECK-NOT: reassoc
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NEXT: scf.yield
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
