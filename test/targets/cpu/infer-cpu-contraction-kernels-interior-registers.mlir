// RUN: infer-opt %s --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512},canonicalize)' | FileCheck %s

// The consumer writes the interior of a padded buffer whose rows (16
// columns) hold whole AVX-512 registers, but a panel (32 columns, two
// registers) spans two of them. Each register goes to its own row: one
// masked store per register with its lanes known at compile time (the
// first 16, the last 16), at its row's offset less its first lane (0 and
// 18 - 16 = 2; the next channel 90 further), where the runs found at run
// time took masks computed per store. The tail panel of 16 columns is one
// register: a plain store.
// CHECK-LABEL: func.func @interior_registers
// CHECK-NOT: vector.create_mask
// CHECK-DAG: %[[LOW:.+]] = arith.constant dense<[true, {{.*}}, true, false, {{.*}}, false]> : vector<32xi1>
// CHECK-DAG: %[[HIGH:.+]] = arith.constant dense<[false, {{.*}}, false, true, {{.*}}, true]> : vector<32xi1>
// CHECK: vector.fma
// CHECK: vector.maskedstore %{{.+}}[%c0], %[[LOW]], %[[ROW0:.+]] : memref<682xf32, strided<[1], offset: 19>>, vector<32xi1>, vector<32xf32>
// CHECK-NEXT: vector.maskedstore %{{.+}}[%c2], %[[HIGH]], %[[ROW0]] :
// CHECK: vector.maskedstore %{{.+}}[%c90], %[[LOW]], %[[ROW1:.+]] :
// CHECK-NEXT: vector.maskedstore %{{.+}}[%c92], %[[HIGH]], %[[ROW1]] :
// CHECK: vector.store %{{.+}}, %{{.+}}[%c36] : memref<682xf32, strided<[1], offset: 19>>, vector<16xf32>
// CHECK-NOT: vector.create_mask
// CHECK-NOT: linalg.generic
func.func @interior_registers(%a: memref<8x4xf32>, %b: memref<4x48xf32>, %p: memref<8x5x18xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x48xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x48xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x48xf32>) outs(%c : memref<8x48xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %rows = memref.expand_shape %c [[0], [1, 2]] output_shape [8, 3, 16] : memref<8x48xf32> into memref<8x3x16xf32>
  %interior = memref.subview %p[0, 1, 1] [8, 3, 16] [1, 1, 1] : memref<8x5x18xf32> to memref<8x3x16xf32, strided<[90, 18, 1], offset: 19>>
  linalg.generic {indexing_maps = [affine_map<(m, h, w) -> (m, h, w)>, affine_map<(m, h, w) -> (m, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : memref<8x3x16xf32>) outs(%interior : memref<8x3x16xf32, strided<[90, 18, 1], offset: 19>>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<8x48xf32>
  return
}
