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
