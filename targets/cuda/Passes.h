//===- Passes.h - CUDA target passes ----------------------------*- C++ -*-===//

#ifndef INFER_TARGETS_CUDA_PASSES_H
#define INFER_TARGETS_CUDA_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace infer::cuda {

#define GEN_PASS_DECL
#include "targets/cuda/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/cuda/Passes.h.inc"

} // namespace infer::cuda

#endif // INFER_TARGETS_CUDA_PASSES_H
