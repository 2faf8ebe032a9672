// The CPU codegen pipeline: tensors in, bare-pointer LLVM function out, no
// call into MLIR's runner libraries.
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=none vector-bits=256" | FileCheck %s

// Inputs, output, workspace, status (the object writer wraps this).
// CHECK: llvm.func @m_main(%{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr)
// CHECK-NOT: memrefCopy
// CHECK: llvm.fadd
func.func @m_main(%a: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<4x4xf32> {
  %0 = graph.add %a, %b : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// With parallel=openmp the matmul kernel's panel loop becomes an OpenMP
// worksharing loop inside a parallel region.
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=openmp vector-bits=256" | FileCheck %s --check-prefix=OMP
// OMP-LABEL: llvm.func @mm_main
// OMP: omp.parallel
// OMP: omp.wsloop
// OMP: llvm.intr.fmuladd
func.func @mm_main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = graph.mat_mul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
