// RUN: infer-opt %s --infer-cpu-pack-weights=vector-bits=256 | FileCheck %s

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// Subnormal weights (magnitude under 2^-126) are packed as zeros of their
// sign: each product with one is below 2^-126 times the other operand,
// and costs a microcode assist on Intel cores. The smallest normal
// magnitudes (1.5e-38, -1.2e-38) and zeros stay as they are.
// CHECK: memref.global "private" constant @w_packed : memref<2x2x6xf32> = dense<{{\[}}{{\[}}[0.000000e+00, 3.000000e+00, -0.000000e+00, 1.500000e-38, 0.000000e+00, 1.100000e+01], [2.000000e+00, -1.200000e-38, 6.000000e+00, 0.000000e+00, 1.000000e+01, -0.000000e+00]], {{\[}}[1.300000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.400000e+01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]>
memref.global "private" constant @w : memref<7x2xf32> = dense<[[1.0e-40, 2.0], [3.0, -1.2e-38], [-5.0e-39, 6.0], [1.5e-38, 0.0], [0.0, 10.0], [11.0, -1.0e-45], [13.0, 14.0]]>
func.func @subnormal_weights(%b: memref<2x16xf32>, %c: memref<7x16xf32>) {
  %a = memref.get_global @w : memref<7x2xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<7x2xf32>, memref<2x16xf32>) outs(%c : memref<7x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
