//===- Passes.h - CPU target passes -----------------------------*- C++ -*-===//

#ifndef INFER_TARGETS_CPU_PASSES_H
#define INFER_TARGETS_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace infer::cpu {

/// `func.func private @__infer_num_threads() -> index`: the thread count
/// of the calling thread's executor (1 without one), which
/// infer-cpu-contraction-kernels sizes its parallel groups by and
/// infer-cpu-parallel-to-runtime defines.
inline constexpr llvm::StringLiteral kThreadCountFn = "__infer_num_threads";

#define GEN_PASS_DECL
#include "targets/cpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/cpu/Passes.h.inc"

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_PASSES_H
