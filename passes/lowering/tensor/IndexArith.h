//===- IndexArith.h - index arithmetic for element-wise lowerings -*- C++
//-*-===//
//
// Short builders for the index arithmetic of lowerings that compute, per
// output element, which input element to read.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSOR_INDEXARITH_H
#define INFER_PASSES_LOWERING_TENSOR_INDEXARITH_H

#include "passes/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace infer::lowering::index_arith {

inline mlir::Value idx(mlir::OpBuilder &b, mlir::Location l, int64_t v) {
  return indexConstant(b, l, v);
}
inline mlir::Value addI(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                        mlir::Value y) {
  return mlir::arith::AddIOp::create(b, l, x, y);
}
inline mlir::Value mulI(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                        mlir::Value y) {
  return mlir::arith::MulIOp::create(b, l, x, y);
}
inline mlir::Value subI(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                        mlir::Value y) {
  return mlir::arith::SubIOp::create(b, l, x, y);
}

} // namespace infer::lowering::index_arith

#endif // INFER_PASSES_LOWERING_TENSOR_INDEXARITH_H
