//===- ScalarMath.h - arith ops picked by element type ----------*- C++ -*-===//
//
// Lowering bodies compute on scalars of any element type; these helpers pick
// the float, signed or unsigned arith op.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_SCALARMATH_H
#define INFER_PASSES_LOWERING_SCALARMATH_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace infer::lowering::scalar {

mlir::Value add(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);
/// (re + i im) e^(i phase), floats: the DFT's twiddle product.
std::pair<mlir::Value, mlir::Value> rotate(mlir::OpBuilder &b, mlir::Location l,
                                           mlir::Value re, mlir::Value im,
                                           mlir::Value phase);
mlir::Value sub(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);
mlir::Value div(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y, bool isUnsigned);
/// NaN-propagating for floats, as ONNX Max/Min.
mlir::Value maxOf(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                  mlir::Value y, bool isUnsigned);
mlir::Value minOf(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                  mlir::Value y, bool isUnsigned);
/// |x| for any element type (unsigned: x itself). Signed integers as
/// max(x, 0 - x), which every target lowers (NVVM has no math.absi
/// conversion); the minimum value stays itself, as math.absi defines.
mlir::Value absOf(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                  bool isUnsigned);

// Float activation functions, shared by the elementwise ops and the
// recurrent layers' gates.
mlir::Value sigmoid(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
mlir::Value softplus(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
mlir::Value softsign(mlir::OpBuilder &b, mlir::Location l, mlir::Value x);
/// clamp(alpha * x + beta, 0, 1)
mlir::Value hardSigmoid(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                        double alpha, double beta);
/// x < 0 ? alpha * (exp(x) - 1) : x
mlir::Value elu(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                double alpha);
/// x < 0 ? alpha * x : x
mlir::Value leakyRelu(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                      double alpha);
/// x > alpha ? x : 0
mlir::Value thresholdedRelu(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                            double alpha);

} // namespace infer::lowering::scalar

#endif // INFER_PASSES_LOWERING_SCALARMATH_H
