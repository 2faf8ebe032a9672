//===- ScalarMath.h - arith ops picked by element type ----------*- C++ -*-===//
//
// Lowering bodies compute on scalars of any element type; these helpers pick
// the float, signed or unsigned arith op.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_SCALARMATH_H
#define INFER_PASSES_LOWERING_SCALARMATH_H

#include "mlir/IR/Builders.h"

namespace infer::lowering::scalar {

mlir::Value add(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, mlir::Value y);
mlir::Value sub(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, mlir::Value y);
mlir::Value div(mlir::OpBuilder &b, mlir::Location l, mlir::Value x, mlir::Value y,
                bool isUnsigned);
/// NaN-propagating for floats, as ONNX Max/Min.
mlir::Value maxOf(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                  mlir::Value y, bool isUnsigned);
mlir::Value minOf(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                  mlir::Value y, bool isUnsigned);

} // namespace infer::lowering::scalar

#endif // INFER_PASSES_LOWERING_SCALARMATH_H
