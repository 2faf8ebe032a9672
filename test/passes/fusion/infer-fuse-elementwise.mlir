// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-fuse-elementwise))' | FileCheck %s
// RUN: sed 's/^module {/module attributes {infer.windows_apart} {/' %s | infer-opt --split-input-file --pass-pipeline='builtin.module(func.func(infer-fuse-elementwise))' | FileCheck %s --check-prefix=APART

// Two elementwise ops become one loop.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %relu : tensor<8xf32>
}

// -----

// An elementwise producer (here an im2col-like copy) is not fused into a
// contraction, and the contraction is not fused into its elementwise
// consumer: the matmul keeps plain operands for the kernels.
// CHECK-LABEL: func.func @contraction_stays_root
// CHECK: %[[COPY:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: %[[MM:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%{{.+}}, %[[COPY]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[MM]] :
// CHECK: arith.maximumf
#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @contraction_stays_root(%w: tensor<4x6xf32>, %x: tensor<6x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<6x16xf32>
  %copy = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x16xf32>) outs(%e0 : tensor<6x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<6x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w, %copy : tensor<4x6xf32>, tensor<6x16xf32>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %relu = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %relu : tensor<4x16xf32>
}

// -----

// The same for a contraction over bfloat16 pairs (PairDot.h): the packing
// of A stays its own loop, so the kernels still recognize the pair dot.
// CHECK-LABEL: func.func @pair_dot_stays_root
// CHECK: %[[PACK:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: arith.ori
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[PACK]], %{{.+}} :
#pa = affine_map<(m, k, n) -> (m, k)>
#pb = affine_map<(m, k, n) -> (k, n)>
#pc = affine_map<(m, k, n) -> (m, n)>
#pid = affine_map<(d0, d1) -> (d0, d1)>
func.func @pair_dot_stays_root(%x: tensor<4x6xi32>, %w: tensor<6x16xi32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xi32>
  %pack = linalg.generic {indexing_maps = [#pid, #pid], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xi32>) outs(%e0 : tensor<4x6xi32>) {
  ^bb0(%v: i32, %o: i32):
    %sixteen = arith.constant 16 : i32
    %h = arith.shli %v, %sixteen : i32
    %p = arith.ori %v, %h : i32
    linalg.yield %p : i32
  } -> tensor<4x6xi32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%pack, %w : tensor<4x6xi32>, tensor<6x16xi32>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%l: i32, %r: i32, %acc: f32):
    %mask = arith.constant -65536 : i32
    %sh = arith.constant 16 : i32
    %l1 = arith.andi %l, %mask : i32
    %lf1 = arith.bitcast %l1 : i32 to f32
    %r1 = arith.andi %r, %mask : i32
    %rf1 = arith.bitcast %r1 : i32 to f32
    %p1 = arith.mulf %lf1, %rf1 : f32
    %s1 = arith.addf %acc, %p1 : f32
    %l0 = arith.shli %l, %sh : i32
    %lf0 = arith.bitcast %l0 : i32 to f32
    %r0 = arith.shli %r, %sh : i32
    %rf0 = arith.bitcast %r0 : i32 to f32
    %p0 = arith.mulf %lf0, %rf0 : f32
    %s0 = arith.addf %s1, %p0 : f32
    linalg.yield %s0 : f32
  } -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}

// -----

// An elementwise producer fused into a window read (a pooling op's input,
// indexed o * 2 + k), or, in a module marked infer.windows_apart (the CPU
// target's), not:
// the pool keeps reading a plain tensor and the producer stays a loop of
// its own (a convolution's epilogue, in a model).
// CHECK-LABEL: func.func @into_windows
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.negf
// CHECK: arith.maximumf
// APART-LABEL: func.func @into_windows
// APART: %[[NEG:.+]] = linalg.generic
// APART-SAME: iterator_types = ["parallel"]
// APART: arith.negf
// APART: linalg.generic
// APART-SAME: iterator_types = ["parallel", "reduction"]
// APART-SAME: ins(%[[NEG]], %{{.+}} :
// APART-NOT: arith.negf
// APART: arith.maximumf
#in = affine_map<(o, k) -> (o * 2 + k)>
#window = affine_map<(o, k) -> (k)>
#out = affine_map<(o, k) -> (o)>
#id1 = affine_map<(d0) -> (d0)>
module {
func.func @into_windows(%x: tensor<9xf32>) -> tensor<4xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<9xf32>
  %neg = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<9xf32>) outs(%e0 : tensor<9xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<9xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %win = tensor.empty() : tensor<3xf32>
  %pool = linalg.generic {indexing_maps = [#in, #window, #out], iterator_types = ["parallel", "reduction"]}
      ins(%neg, %win : tensor<9xf32>, tensor<3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.maximumf %o, %v : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %pool : tensor<4xf32>
}
}

// -----

// An SE block's scale ([1, 2, 1, 1] broadcast over the plane through
// constant-0 results) feeding an upsampling Add that reads the plane as
// [n, c, h, 2, w, 2] through an expand_shape. Folding the reshape into a
// generic by expansion needs projected-permutation maps, so the scale's
// broadcast unit dims are dropped first (a collapse_shape of it); the
// two then fuse into one loop and the scaled plane is never written.
// Without the drop they stay two loops.
// CHECK-LABEL: func.func @scale_into_upsample
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %arg1, %{{.+}} :
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
#plane = affine_map<(n, c, h, w) -> (n, c, h, w)>
#scale = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#fine = affine_map<(n, c, h, a, w, b) -> (n, c, h, a, w, b)>
#coarse = affine_map<(n, c, h, a, w, b) -> (n, c, h, w)>
func.func @scale_into_upsample(%x: tensor<1x2x4x4xf32>, %s: tensor<1x2x1x1xf32>, %z: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2x2x2xf32> {
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %m = linalg.generic {indexing_maps = [#plane, #scale, #plane], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<1x2x4x4xf32>
  %me = tensor.expand_shape %m [[0], [1], [2, 3], [4, 5]] output_shape [1, 2, 2, 2, 2, 2] : tensor<1x2x4x4xf32> into tensor<1x2x2x2x2x2xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2x2x2xf32>
  %y = linalg.generic {indexing_maps = [#fine, #coarse, #fine], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%me, %z : tensor<1x2x2x2x2x2xf32>, tensor<1x2x2x2xf32>) outs(%e1 : tensor<1x2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<1x2x2x2x2x2xf32>
  return %y : tensor<1x2x2x2x2x2xf32>
}
