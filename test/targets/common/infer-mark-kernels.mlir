// RUN: infer-opt %s --split-input-file --infer-mark-kernels --mlir-print-debuginfo | FileCheck %s

// Kernels are numbered in order: the pad (role "pad"), the matmul (its
// accumulator fill belongs to it and gets no number), the elementwise
// consumer and the transposition (role "copy", no arithmetic). FLOPs: the
// matmul 2 x 4 x 8 x 16 = 1024; the consumer does an add and a max per
// element, 2 x 4 x 8 = 64. Each mark keeps the original location and the
// body's (the Add fused before the Relu).
// CHECK-LABEL: func.func @kernels
// CHECK: tensor.pad
// CHECK: } : tensor<4x14xf32> to tensor<4x16xf32> loc(#[[PAD:loc[0-9]+]])
// CHECK: linalg.fill {{.*}} loc(#[[MM:loc[0-9]*]])
// CHECK: linalg.matmul {{.*}} loc(#[[MMK:loc[0-9]+]])
// CHECK: linalg.generic
// CHECK: } -> tensor<4x8xf32> loc(#[[EW:loc[0-9]+]])
// CHECK: linalg.transpose {{.*}} loc(#[[TR:loc[0-9]+]])
// CHECK-DAG: #[[ADD:loc[0-9]+]] = loc("add"(#{{loc[0-9]+}}))
// CHECK-DAG: #[[PAD]] = loc(fused<{flops = 0.000000e+00 : f64, infer.kernel = 0 : i64, role = "pad"}>[
// CHECK-DAG: #[[MMK]] = loc(fused<{flops = 1.024000e+03 : f64, infer.kernel = 1 : i64}>[#[[MM]]
// CHECK-DAG: #[[EW]] = loc(fused<{flops = 6.400000e+01 : f64, infer.kernel = 2 : i64}>[#{{loc[0-9]+}}, {{.*}}#[[ADD]]
// CHECK-DAG: #[[TR]] = loc(fused<{flops = 0.000000e+00 : f64, infer.kernel = 3 : i64, role = "copy"}>[
func.func @kernels(%a: tensor<4x14xf32>, %b: tensor<16x8xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x14xf32> to tensor<4x16xf32> loc("mm"("MatMul"))
  %e = tensor.empty() : tensor<4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32> loc("mm"("MatMul"))
  %m = linalg.matmul ins(%p, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32> loc("mm"("MatMul"))
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32 loc("add"("Add"))
    %y = arith.maximumf %s, %zero : f32 loc("relu"("Relu"))
    linalg.yield %y : f32 loc("relu"("Relu"))
  } -> tensor<4x8xf32> loc("relu"("Relu"))
  %t0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%r : tensor<4x8xf32>) outs(%t0 : tensor<8x4xf32>) permutation = [1, 0] loc("t"("Transpose"))
  return %t : tensor<8x4xf32>
}

// -----

// A recurrence: the loop is one kernel, its FLOPs the trips (3) times its
// body's (an add over 8 elements): 24.
// CHECK-LABEL: func.func @recurrence
// CHECK: scf.for
// CHECK: } loc(#[[LOOP:loc[0-9]+]])
// CHECK: #[[LOOP]] = loc(fused<{flops = 2.400000e+01 : f64, infer.kernel = 0 : i64}>
func.func @recurrence(%h0: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %t = %c0 to %c3 step %c1 iter_args(%h1 = %h0) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%h1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  } loc("rnn"("GRU"))
  return %h : tensor<8xf32>
}

// -----

// A contraction over packed 8-bit lanes (ByteDot.h) counts a multiply-add
// per lane: 2 x 4 x (2 x 3 x 5) = 240, not its body's 14 integer ops per
// step (the shifts unpack the lanes).
// CHECK-LABEL: func.func @byte_dot
// CHECK: linalg.generic
// CHECK: } -> tensor<2x5xi32> loc(#[[BD:loc[0-9]+]])
// CHECK-DAG: #[[BD]] = loc(fused<{flops = 2.400000e+02 : f64, infer.kernel = 0 : i64}>[
func.func @byte_dot(%a: tensor<2x3xi32>, %b: tensor<3x5xi32>, %c: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : tensor<2x3xi32>, tensor<3x5xi32>) outs(%c : tensor<2x5xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %x0 = arith.trunci %x : i32 to i8
    %xs0 = arith.extsi %x0 : i8 to i32
    %y0 = arith.trunci %y : i32 to i8
    %yu0 = arith.extui %y0 : i8 to i32
    %p0 = arith.muli %xs0, %yu0 : i32
    %s0 = arith.addi %acc, %p0 : i32
    %c8 = arith.constant 8 : i32
    %x1s = arith.shrui %x, %c8 : i32
    %x1t = arith.trunci %x1s : i32 to i8
    %xs1 = arith.extsi %x1t : i8 to i32
    %y1s = arith.shrui %y, %c8 : i32
    %y1 = arith.trunci %y1s : i32 to i8
    %yu1 = arith.extui %y1 : i8 to i32
    %p1 = arith.muli %xs1, %yu1 : i32
    %s1 = arith.addi %s0, %p1 : i32
    %c16 = arith.constant 16 : i32
    %x2s = arith.shrui %x, %c16 : i32
    %x2 = arith.trunci %x2s : i32 to i8
    %xs2 = arith.extsi %x2 : i8 to i32
    %y2s = arith.shrui %y, %c16 : i32
    %y2 = arith.trunci %y2s : i32 to i8
    %yu2 = arith.extui %y2 : i8 to i32
    %p2 = arith.muli %xs2, %yu2 : i32
    %s2 = arith.addi %s1, %p2 : i32
    %c24 = arith.constant 24 : i32
    %x3s = arith.shrui %x, %c24 : i32
    %x3 = arith.trunci %x3s : i32 to i8
    %xs3 = arith.extsi %x3 : i8 to i32
    %y3s = arith.shrui %y, %c24 : i32
    %y3 = arith.trunci %y3s : i32 to i8
    %yu3 = arith.extui %y3 : i8 to i32
    %p3 = arith.muli %xs3, %yu3 : i32
    %s3 = arith.addi %s2, %p3 : i32
    linalg.yield %s3 : i32
  } -> tensor<2x5xi32>
  return %r : tensor<2x5xi32>
}
