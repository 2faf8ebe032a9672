//===- ArgReduce.h - the index of the first or last extreme -----*- C++ -*-===//
//
// ArgMax/ArgMin and Hardmax need the position of a tensor's maximum (or
// minimum) along one axis: one linalg reduction that carries the best value
// and its index, whatever the axis's size.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_REDUCTION_ARGREDUCE_H
#define INFER_PASSES_LOWERING_REDUCTION_ARGREDUCE_H

#include "mlir/IR/Builders.h"

namespace infer::lowering {

/// The lowest (or highest) value of element type `t`: -inf/+inf for floats,
/// the integer limits by `isUnsigned`.
mlir::Value extremeValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                         bool lowest, bool isUnsigned);

/// The i64 index along `axis` of the maximum (`isMax`) or minimum of the
/// statically shaped `input`: the first one, or the last with `last`. The
/// result keeps `axis` as a dim of size 1. Float NaNs never win, unless the
/// first element is one.
mlir::Value buildArgReduce(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, int64_t axis, bool isMax,
                           bool last, bool isUnsigned);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_REDUCTION_ARGREDUCE_H
