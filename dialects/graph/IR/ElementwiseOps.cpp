//===- ElementwiseOps.cpp - elementwise graph op verifiers and folders ----===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace infer::graph;

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto resultType = cast<TensorType>(getOutput().getType());
  if (resultType.getElementType() != getTo()) {
    return emitOpError("result element type ")
           << resultType.getElementType() << " differs from `to` = " << getTo();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ClipOp
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::verify() {
  return success(succeeded(verifySingleValue(*this, "min", getMin())) &&
                 succeeded(verifySingleValue(*this, "max", getMax())));
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getOutput().getType()) {
    return getInput();
  }
  return foldCastConstant(adaptor.getInput(), getOutput().getType());
}

//===----------------------------------------------------------------------===//
// Arithmetic folders (constant operands only: shape computations)
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinaryConstant(
      adaptor.getA(), adaptor.getB(), getC().getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      },
      [](const APFloat &a, const APFloat &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinaryConstant(
      adaptor.getA(), adaptor.getB(), getC().getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      },
      [](const APFloat &a, const APFloat &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinaryConstant(
      adaptor.getA(), adaptor.getB(), getC().getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      },
      [](const APFloat &a, const APFloat &b) { return a * b; });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // -x as 0 - x, with the zero broadcast from a scalar.
  auto input = getFoldableElements(adaptor.getX());
  if (!input) {
    return {};
  }
  Type element = input.getElementType();
  auto scalarType = RankedTensorType::get({}, element);
  Attribute zero =
      isa<FloatType>(element)
          ? Attribute(DenseElementsAttr::get(
                scalarType,
                APFloat::getZero(cast<FloatType>(element).getFloatSemantics())))
          : Attribute(DenseElementsAttr::get(
                scalarType, APInt(element.getIntOrFloatBitWidth(), 0)));
  return foldBinaryConstant(
      zero, input, getY().getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      },
      [](const APFloat &a, const APFloat &b) { return a - b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = getElementTypeOrSelf(getC().getType()).isUnsignedInteger();
  return foldBinaryConstant(
      adaptor.getA(), adaptor.getB(), getC().getType(),
      [isUnsigned](const APInt &a, const APInt &b) -> std::optional<APInt> {
        // Integer division truncates toward zero in ONNX; never fold a
        // division by zero.
        if (b.isZero()) {
          return std::nullopt;
        }
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      },
      [](const APFloat &a, const APFloat &b) { return a / b; });
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = getElementTypeOrSelf(getC().getType()).isUnsignedInteger();
  bool cStyle = getFmod() != 0;
  return foldBinaryConstant(
      adaptor.getA(), adaptor.getB(), getC().getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero()) {
          return std::nullopt;
        }
        if (isUnsigned) {
          return a.urem(b);
        }
        APInt r = a.srem(b);
        // Python's %: the remainder takes the divisor's sign.
        if (!cStyle && !r.isZero() && r.isNegative() != b.isNegative()) {
          r += b;
        }
        return r;
      },
      [&](const APFloat &a, const APFloat &b) {
        APFloat r = a;
        r.mod(b);
        return r;
      });
}

/// A condition that is all true or all false picks one operand, when that
/// operand needs no broadcast.
OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  auto condition = dyn_cast_or_null<SplatElementsAttr>(adaptor.getCondition());
  if (!condition) {
    return {};
  }
  Value picked = condition.getSplatValue<bool>() ? getX() : getY();
  auto pickedType = dyn_cast<RankedTensorType>(picked.getType());
  if (pickedType && pickedType.hasStaticShape() &&
      pickedType == getOutput().getType()) {
    return picked;
  }
  return {};
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/ElementwiseOps.cpp.inc"
