//===- Passes.h - passes every target runs ----------------------*- C++ -*-===//

#ifndef INFER_TARGETS_COMMON_PASSES_H
#define INFER_TARGETS_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace infer::targets {

/// On a static `memref.alloc`: infer-plan-workspace leaves it out of the
/// plan (a target's pass knows its kernels never touch it; see
/// infer-cpu-unplan-fused-outputs). It stays an allocation until nothing
/// uses it and canonicalization removes it.
inline constexpr llvm::StringLiteral kUnplannedAttr = "infer.unplanned";

#define GEN_PASS_DECL
#include "targets/common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/common/Passes.h.inc"

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_PASSES_H
