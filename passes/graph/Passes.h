//===- Passes.h - graph-level passes ----------------------------*- C++ -*-===//

#ifndef INFER_PASSES_GRAPH_PASSES_H
#define INFER_PASSES_GRAPH_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include "dialects/graph/IR/GraphDialect.h"

namespace infer::graph {

#define GEN_PASS_DECL
#include "passes/graph/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/graph/Passes.h.inc"

/// Refines every result type in `func` (see PropagateShapesPass). Sets
/// `changed` when a type became more precise.
llvm::LogicalResult propagateShapes(mlir::func::FuncOp func, bool &changed);

} // namespace infer::graph

#endif // INFER_PASSES_GRAPH_PASSES_H
