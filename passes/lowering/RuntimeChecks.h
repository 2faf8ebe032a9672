//===- RuntimeChecks.h - asserts the run checks, naming the node -*- C++
//-*-===//
//
// With run-time checks on (infer-lower-graph-to-linalg{checks=true}), a
// lowering asserts what only the data can tell (index ranges, shapes of
// dynamic inputs) with a message naming the ONNX node; the targets turn
// the asserts into the run's error status.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_RUNTIMECHECKS_H
#define INFER_PASSES_LOWERING_RUNTIMECHECKS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace infer::lowering {

/// The module attribute that asks the patterns for run-time checks (set by
/// infer-lower-graph-to-linalg{checks=true} while it runs).
inline constexpr llvm::StringLiteral kChecksAttr = "infer.lowering_checks";

/// When checks are on: a `cf.assert` that every element i of the integer
/// tensor `indices` lies in [-n, n-1], n being `bounds[0]`, or with
/// `perLastDim` `bounds[k]` for elements at position k of the last
/// dimension. Its message names `op`'s ONNX node. (The lowered code still
/// clamps indices so a bad one never reads out of bounds; the CPU target
/// turns the assert into the run's error status.)
void assertIndicesInRange(mlir::OpBuilder &b, mlir::Operation *op,
                          mlir::Value indices, llvm::ArrayRef<int64_t> bounds,
                          bool perLastDim = false);

/// The same check against a run-time axis size `bound` (an index value).
void assertIndicesInRange(mlir::OpBuilder &b, mlir::Operation *op,
                          mlir::Value indices, mlir::Value bound);

/// The general form: `bound`, when set, replaces `bounds`.
void assertIndicesInRange(mlir::OpBuilder &b, mlir::Operation *op,
                          mlir::Value indices, llvm::ArrayRef<int64_t> bounds,
                          mlir::Value bound, bool perLastDim);

/// "node 'NAME' (OpType)" from an importer location, or the op's name.
std::string describeNode(mlir::Operation *op);

/// Whether the lowering runs with run-time checks (see kChecksAttr).
bool checksEnabled(mlir::Operation *op);

/// A `cf.assert` of the i1 `flag` with the message "<node>: <what>".
void assertAtRunTime(mlir::OpBuilder &b, mlir::Operation *op, mlir::Value flag,
                     llvm::StringRef what);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_RUNTIMECHECKS_H
