// The CPU codegen pipeline: tensors in, bare-pointer LLVM function out, no
// call into MLIR's runner libraries.
// RUN: infer-opt %s --infer-lower-graph-to-linalg --cpu-codegen | FileCheck %s

// Inputs, output, workspace.
// CHECK: llvm.func @m_main(%{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr)
// CHECK-NOT: memrefCopy
// CHECK: llvm.fadd
func.func @m_main(%a: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<4x4xf32> {
  %0 = graph.add %a, %b : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
