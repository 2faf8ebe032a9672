//===- Passes.h - fusion on linalg tensors ----------------------*- C++ -*-===//

#ifndef INFER_PASSES_FUSION_PASSES_H
#define INFER_PASSES_FUSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace infer::fusion {

#define GEN_PASS_DECL
#include "passes/fusion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/fusion/Passes.h.inc"

/// True for a linalg op that multiplies and accumulates over a reduction
/// dimension with plain (projected-permutation) operand maps: the ops the
/// targets' matmul kernels take.
bool isContraction(mlir::Operation *op);

} // namespace infer::fusion

#endif // INFER_PASSES_FUSION_PASSES_H
