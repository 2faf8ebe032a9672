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
// With parallel=runtime (the default) the same loop is a task the caller's
// executor runs: no OpenMP op is left.
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=runtime vector-bits=256" | FileCheck %s --check-prefix=RT
// RT: llvm.func internal @mm_main_task0(%{{.+}}: !llvm.ptr, %{{.+}}: i64, %{{.+}}: i64)
// RT: llvm.intr.fmuladd
// RT-LABEL: llvm.func @mm_main
// RT-NOT: omp.
// RT: llvm.call @__infer_parallel_for
func.func @mm_main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = graph.mat_mul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// erf fused into a convolution's vectorized epilogue (GELU after a Conv) is
// computed in the vector's lanes by default (a polynomial, no call)...
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=none vector-bits=256" | FileCheck %s --check-prefix=POLY
// POLY-LABEL: llvm.func @gelu_main
// POLY-NOT: llvm.call @erff
// POLY: llvm.fdiv %{{.+}} : vector<16xf32>
// POLY-NOT: llvm.call @erff
// ...and with math=libm is a libm call per lane: the lanes are taken apart
// before the vector lowering runs, so no vector op is left for LLVM
// translation.
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=none vector-bits=256 math=libm" | FileCheck %s --check-prefix=ERF
// ERF-LABEL: llvm.func @gelu_main
// ERF-NOT: vector.
// ERF: llvm.extractelement
// ERF-NEXT: llvm.call @erff
// ERF-NOT: vector.
func.func @gelu_main(%x: tensor<1x16x8x8xf32>, %w: tensor<32x16x1x1xf32>) -> tensor<1x32x8x8xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>, none) -> tensor<1x32x8x8xf32>
  %1 = graph.erf %0 : (tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %1 : tensor<1x32x8x8xf32>
}

// -----

// Two convolutions, each with its Relu as the kernel's epilogue: the
// kernels store the Relus' results and never write the convolutions' own
// outputs, which take no workspace (infer-cpu-unplan-fused-outputs) and
// are gone after the kernels: the workspace holds the first Relu's result
// alone (32 x 8 x 8 floats), and nothing is allocated at run time.
// RUN: infer-opt %s --split-input-file --infer-lower-graph-to-linalg --fuse --cpu-codegen="parallel=none vector-bits=256" | FileCheck %s --check-prefix=UNPLANNED
// UNPLANNED: infer.workspace_size = 8192 : i64
// UNPLANNED-LABEL: llvm.func @chain_main
// UNPLANNED-NOT: @malloc
// UNPLANNED: llvm.return
func.func @chain_main(%x: tensor<1x16x8x8xf32>, %w1: tensor<32x16x1x1xf32>, %w2: tensor<16x32x1x1xf32>) -> tensor<1x16x8x8xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w1, %none : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>, none) -> tensor<1x32x8x8xf32>
  %1 = graph.relu %0 : (tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %2 = graph.conv %1, %w2, %none : (tensor<1x32x8x8xf32>, tensor<16x32x1x1xf32>, none) -> tensor<1x16x8x8xf32>
  %3 = graph.relu %2 : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %3 : tensor<1x16x8x8xf32>
}
