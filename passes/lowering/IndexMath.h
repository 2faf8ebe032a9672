//===- IndexMath.h - index arithmetic in loop bodies ------------*- C++ -*-===//
//
// Index constants, ONNX's negative-index wrapping and clamping, row-major
// delinearization, reduced shapes, and scf.for loops with carried values.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_INDEXMATH_H
#define INFER_PASSES_LOWERING_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace infer::lowering {

/// `scf.for %i = lo to hi` carrying `init`; `body` returns the next values.
mlir::ValueRange
forLoop(mlir::OpBuilder &b, mlir::Location l, mlir::Value lo, mlir::Value hi,
        mlir::ValueRange init,
        llvm::function_ref<llvm::SmallVector<mlir::Value>(
            mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::ValueRange)>
            body);

/// The coordinates in a row-major tensor of `shape` of flat index `flat`.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b, mlir::Location l,
                                           mlir::Value flat,
                                           llvm::ArrayRef<int64_t> shape);

/// Integer element `v` as an index, negative values wrapped by `dim` (ONNX's
/// -n..n-1 indexing).
mlir::Value wrapIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                      int64_t dim);

/// Clamps index `i` into [0, dim - 1], so a bad index never reads or writes
/// out of bounds.
mlir::Value clampIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value i,
                       int64_t dim);

/// The same for a run-time size `dim` (an index value).
mlir::Value wrapIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                      mlir::Value dim);
mlir::Value clampIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value i,
                       mlir::Value dim);

/// Index-typed arithmetic helpers for bodies.
mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Arithmetic on tensor sizes (index values or constants): each result is
/// an attribute when its operands are, so static shapes fold completely and
/// only the run-time parts become arith ops.
class SizeMath {
public:
  SizeMath(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  mlir::OpFoldResult constant(int64_t v);
  mlir::Value value(mlir::OpFoldResult v);
  mlir::OpFoldResult add(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult sub(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult mul(mlir::OpFoldResult x, int64_t y);
  mlir::OpFoldResult mul(mlir::OpFoldResult x, mlir::OpFoldResult y);
  /// Rounding towards -infinity and +infinity; `y` > 0.
  mlir::OpFoldResult floorDiv(mlir::OpFoldResult x, int64_t y);
  mlir::OpFoldResult ceilDiv(mlir::OpFoldResult x, int64_t y);
  mlir::OpFoldResult max(mlir::OpFoldResult x, mlir::OpFoldResult y);
  /// `x` - 1 when `lhs pred rhs` holds (signed), else `x`.
  mlir::OpFoldResult decrementIf(mlir::OpFoldResult x,
                                 mlir::arith::CmpIPredicate pred,
                                 mlir::OpFoldResult lhs,
                                 mlir::OpFoldResult rhs);

private:
  mlir::OpFoldResult
  fold(mlir::OpFoldResult x, mlir::OpFoldResult y,
       llvm::function_ref<int64_t(int64_t, int64_t)> eval,
       llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> build);
  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// The shape with reduced `axes` removed or kept as 1.
llvm::SmallVector<int64_t> reducedShape(llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> axes,
                                        bool keepDims);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_INDEXMATH_H
