//===- ReductionLoops.h - a generic's reduction loop as scf loops -*- C++
//-*-===//
//
// Part of infer-reassociate-row-reductions (Passes.td): the innermost
// reduction loop of a linalg.generic on buffers, written as an scf.for
// that carries the accumulators in registers, either in order (scalar) or,
// when every result is a min or max, in vector lanes.
//
// A min/max reduction (ReduceMax, ReduceMin, DynamicQuantizeLinear's
// range) gives the same value in any order, so it may keep partial results
// in lanes; LLVM does not vectorize such a loop itself (it stays a chain of
// scalar compares and selects, one latency per element).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_REDUCTIONLOOPS_H
#define INFER_TARGETS_COMMON_REDUCTIONLOOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace infer::targets {

/// The element of an operand that the loop indices `ivs` select through
/// `map`, when `map`'s results are loop indices and constants.
std::optional<llvm::SmallVector<mlir::Value>>
elementIndices(mlir::AffineMap map, mlir::ValueRange ivs, mlir::OpBuilder &b,
               mlir::Location loc);

/// The reduction loop of `op` (its innermost) from `lower` to `upper` in
/// order, one element a step, starting from the accumulators `inits`; `ivs`
/// holds the outer loops' indices, its last entry is set to the loop's.
/// Returns the final accumulators.
llvm::SmallVector<mlir::Value>
buildScalarReduction(mlir::linalg::GenericOp op, mlir::RewriterBase &b,
                     mlir::Value lower, mlir::Value upper,
                     mlir::ValueRange inits,
                     llvm::SmallVectorImpl<mlir::Value> &ivs);

/// Whether `op`'s reduction loop can run in vector lanes: every yielded
/// value a min or max (float or integer) of its accumulator and a value
/// that elementwise arith or math ops compute from the inputs; every input
/// that the reduction loop indexes read along it as its innermost dim, of
/// unit stride; elements of 8 to 64 bits.
bool isExactVectorReduction(mlir::linalg::GenericOp op);

/// The reduction loop of `op` as a vector loop over whole steps of
/// kVectorAccumulators vectors of `vectorBits` (fewer when the loop's
/// known length holds fewer; each accumulator's lanes hold partial
/// results), the partials combined and reduced across lanes,
/// then buildScalarReduction over the rest. Same arguments and result as
/// buildScalarReduction; requires isExactVectorReduction(op).
llvm::SmallVector<mlir::Value> buildVectorReduction(
    mlir::linalg::GenericOp op, mlir::RewriterBase &b, mlir::Value lower,
    mlir::Value upper, mlir::ValueRange inits,
    llvm::SmallVectorImpl<mlir::Value> &ivs, int64_t vectorBits);

/// Independent vector accumulators per result: enough to hide a min/max's
/// latency behind the loads.
constexpr int64_t kVectorAccumulators = 4;

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_REDUCTIONLOOPS_H
