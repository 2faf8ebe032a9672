//===- QuantOps.cpp - quantization graph ops ------------------------------===//

#include "dialects/graph/IR/ConvChecks.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

namespace {

/// Infers the result type of a quantized matrix product of `a` and `b` into
/// `inferred`; fails, with an error on `op`, when their shapes do not
/// multiply.
LogicalResult inferMatmul(Operation *op, Value a, Value b, Type resultType,
                          SmallVectorImpl<Type> &inferred) {
  auto lhs = getRanked(a), rhs = getRanked(b);
  std::string error;
  if (!lhs || !rhs) {
    inferred.push_back(resultType);
    return success();
  }
  auto shape = matmulShape(lhs, rhs, error);
  if (!shape) {
    return op->emitOpError(error) << " in " << lhs << " x " << rhs;
  }
  inferred.push_back(withShape(resultType, *shape));
  return success();
}

/// The result type of a quantized convolution (N x M x spatial...).
template <typename Op>
Type inferConv(Op op, Value xValue, Value wValue, Type resultType) {
  auto x = getRanked(xValue), w = getRanked(wValue);
  if (!x || !w || x.getRank() < 3 || w.getRank() != x.getRank()) {
    return resultType;
  }
  SmallVector<int64_t> kernel(
      op.getKernelShape().value_or(w.getShape().drop_front(2)));
  if (static_cast<int64_t>(kernel.size()) != x.getRank() - 2) {
    return resultType;
  }
  SmallVector<int64_t> shape = {x.getDimSize(0), w.getDimSize(0)};
  llvm::append_range(shape,
                     windowOutputShape(x.getShape().drop_front(2), kernel,
                                       op.getStrides(), op.getDilations(),
                                       op.getPads(), op.getAutoPad(), false));
  return withShape(resultType, shape);
}

} // namespace

/// y has x's shape; the scale and zero point are scalars.
LogicalResult
DynamicQuantizeLinearOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  inferred.push_back(x ? withShape(getY().getType(), x.getShape())
                       : getY().getType());
  inferred.push_back(withShape(getYScale().getType(), {}));
  inferred.push_back(withShape(getYZeroPoint().getType(), {}));
  return success();
}

LogicalResult
MatMulIntegerOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  return inferMatmul(*this, getA(), getB(), getY().getType(), inferred);
}

LogicalResult
QLinearMatMulOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  return inferMatmul(*this, getA(), getB(), getY().getType(), inferred);
}

LogicalResult ConvIntegerOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  if (failed(verifyConvOperands(*this, getX(), getW(), getGroup(),
                                getKernelShape(), getStrides(), getDilations(),
                                getPads()))) {
    return failure();
  }
  inferred.push_back(inferConv(*this, getX(), getW(), getY().getType()));
  return success();
}

LogicalResult QLinearConvOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  if (failed(verifyConvOperands(*this, getX(), getW(), getGroup(),
                                getKernelShape(), getStrides(), getDilations(),
                                getPads()))) {
    return failure();
  }
  inferred.push_back(inferConv(*this, getX(), getW(), getY().getType()));
  return success();
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/QuantOps.cpp.inc"

namespace {

/// QuantizeLinear/DequantizeLinear: a scale (and zero point) of one element
/// applies to the whole tensor; more elements are per-axis (rank 1, one per
/// index of `axis`) or blocked (the input's rank).
template <typename Op>
LogicalResult verifyQuantParams(Op op, Value x, Value scale, Value zeroPoint) {
  auto xType = getRanked(x);
  auto scaleType = getRanked(scale);
  if (!xType || !scaleType) {
    return success();
  }
  auto zpType = isNone(zeroPoint) ? RankedTensorType() : getRanked(zeroPoint);
  if (zpType && zpType.hasStaticShape() && scaleType.hasStaticShape() &&
      zpType.getNumElements() != scaleType.getNumElements()) {
    return op.emitOpError("the zero point has ")
           << zpType.getNumElements() << " elements, the scale "
           << scaleType.getNumElements();
  }
  if (scaleType.getRank() == 0 ||
      (scaleType.getRank() == 1 && scaleType.getDimSize(0) == 1)) {
    return success();
  }
  if (failed(verifyAxis(op, op.getAxis(), x))) {
    return failure();
  }
  int64_t axis = *normalizeAxis(op.getAxis(), xType.getRank());
  if (op.getBlockSize() != 0) {
    if (scaleType.getRank() != xType.getRank()) {
      return op.emitOpError("a blocked scale must have the input's rank ")
             << xType.getRank() << ", got rank " << scaleType.getRank();
    }
    return success();
  }
  if (scaleType.getRank() != 1) {
    return op.emitOpError("a per-axis scale must have rank 1, got rank ")
           << scaleType.getRank();
  }
  if (!scaleType.isDynamicDim(0) && !xType.isDynamicDim(axis) &&
      scaleType.getDimSize(0) != xType.getDimSize(axis)) {
    return op.emitOpError("the scale has ")
           << scaleType.getDimSize(0) << " elements for axis " << axis
           << " of size " << xType.getDimSize(axis);
  }
  return success();
}

} // namespace

LogicalResult QuantizeLinearOp::verify() {
  return verifyQuantParams(*this, getX(), getYScale(), getYZeroPoint());
}

LogicalResult DequantizeLinearOp::verify() {
  return verifyQuantParams(*this, getX(), getXScale(), getXZeroPoint());
}
