//===- Passes.h - HLS target passes -----------------------------*- C++ -*-===//

#ifndef INFER_TARGETS_HLS_PASSES_H
#define INFER_TARGETS_HLS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace infer::hls {

#define GEN_PASS_DECL
#include "targets/hls/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/hls/Passes.h.inc"

// Attribute names: the directives live in the IR as these attributes until
// the emitter turns them into pragmas.
inline constexpr llvm::StringLiteral kTopAttr = "hls.top";
inline constexpr llvm::StringLiteral kLayerAttr = "hls.layer";
inline constexpr llvm::StringLiteral kAccessAttr = "hls.access";
inline constexpr llvm::StringLiteral kPipelineAttr = "hls.pipeline_ii";
inline constexpr llvm::StringLiteral kUnrollAttr = "hls.unroll";
inline constexpr llvm::StringLiteral kPartitionAttr = "hls.array_partition";
inline constexpr llvm::StringLiteral kDataflowAttr = "hls.dataflow";
inline constexpr llvm::StringLiteral kDataflowBlockedAttr =
    "hls.dataflow_blocked";

/// The function marked `hls.top`, or null.
mlir::func::FuncOp findTop(mlir::ModuleOp module);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_PASSES_H
