//===- Folding.cpp - constant folding helpers for graph ops ---------------===//

#include "dialects/graph/IR/Folding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;

namespace infer::graph {

DenseElementsAttr getFoldableElements(Attribute attr) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!elements || elements.getNumElements() > kMaxFoldElements) {
    return nullptr;
  }
  if (!isa<IntegerType, FloatType>(elements.getElementType())) {
    return nullptr;
  }
  return elements;
}

RankedTensorType getFoldableType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape() ||
      ranked.getNumElements() > kMaxFoldElements ||
      !isa<IntegerType, FloatType>(ranked.getElementType())) {
    return nullptr;
  }
  return ranked;
}

int64_t broadcastSourceIndex(int64_t flat, ArrayRef<int64_t> outShape,
                             ArrayRef<int64_t> inShape) {
  int64_t result = 0;
  int64_t inStride = 1;
  int64_t offset = outShape.size() - inShape.size();
  for (int64_t d = outShape.size() - 1; d >= 0; --d) {
    int64_t coord = flat % outShape[d];
    flat /= outShape[d];
    if (d < offset) {
      continue;
    }
    int64_t inDim = inShape[d - offset];
    if (inDim != 1) {
      result += coord * inStride;
    }
    inStride *= inDim;
  }
  return result;
}

OpFoldResult foldBinaryConstant(
    Attribute lhs, Attribute rhs, Type resultType,
    function_ref<std::optional<APInt>(const APInt &, const APInt &)> intFn,
    function_ref<APFloat(const APFloat &, const APFloat &)> floatFn) {
  auto a = getFoldableElements(lhs);
  auto b = getFoldableElements(rhs);
  auto type = getFoldableType(resultType);
  if (!a || !b || !type || a.getElementType() != type.getElementType() ||
      b.getElementType() != type.getElementType()) {
    return {};
  }
  ArrayRef<int64_t> aShape = a.getType().getShape();
  ArrayRef<int64_t> bShape = b.getType().getShape();
  int64_t n = type.getNumElements();
  if (isa<IntegerType>(type.getElementType())) {
    auto aValues = llvm::to_vector(a.getValues<APInt>());
    auto bValues = llvm::to_vector(b.getValues<APInt>());
    SmallVector<APInt> result;
    result.reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      auto v = intFn(aValues[broadcastSourceIndex(i, type.getShape(), aShape)],
                     bValues[broadcastSourceIndex(i, type.getShape(), bShape)]);
      if (!v) {
        return {};
      }
      result.push_back(*v);
    }
    return DenseElementsAttr::get(type, result);
  }
  auto aValues = llvm::to_vector(a.getValues<APFloat>());
  auto bValues = llvm::to_vector(b.getValues<APFloat>());
  SmallVector<APFloat> result;
  result.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    result.push_back(
        floatFn(aValues[broadcastSourceIndex(i, type.getShape(), aShape)],
                bValues[broadcastSourceIndex(i, type.getShape(), bShape)]));
  }
  return DenseElementsAttr::get(type, result);
}

OpFoldResult foldCastConstant(Attribute input, Type resultType) {
  auto in = getFoldableElements(input);
  auto type = getFoldableType(resultType);
  if (!in || !type || in.getType().getShape() != type.getShape()) {
    return {};
  }
  Type from = in.getElementType();
  Type to = type.getElementType();
  bool fromUnsigned = from.isUnsignedInteger();
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    SmallVector<APInt> result;
    if (isa<IntegerType>(from)) {
      for (const APInt &v : in.getValues<APInt>()) {
        if (width == 1) {
          result.push_back(APInt(1, v.isZero() ? 0 : 1));
        } else {
          result.push_back(fromUnsigned || from.isInteger(1)
                               ? v.zextOrTrunc(width)
                               : v.sextOrTrunc(width));
        }
      }
    } else {
      for (const APFloat &v : in.getValues<APFloat>()) {
        if (width == 1) {
          result.push_back(APInt(1, v.isZero() ? 0 : 1));
          continue;
        }
        APSInt converted(width, toInt.isUnsigned());
        bool exact = false;
        if (v.convertToInteger(converted, APFloat::rmTowardZero, &exact) &
            APFloat::opInvalidOp) {
          return {}; // NaN or out of range: leave it to run time.
        }
        result.push_back(converted);
      }
    }
    return DenseElementsAttr::get(type, result);
  }
  auto toFloat = cast<FloatType>(to);
  SmallVector<APFloat> result;
  if (isa<IntegerType>(from)) {
    for (const APInt &v : in.getValues<APInt>()) {
      APFloat f(toFloat.getFloatSemantics());
      f.convertFromAPInt(v, !(fromUnsigned || from.isInteger(1)),
                         APFloat::rmNearestTiesToEven);
      result.push_back(f);
    }
  } else {
    for (APFloat v : in.getValues<APFloat>()) {
      bool losesInfo = false;
      v.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      result.push_back(v);
    }
  }
  return DenseElementsAttr::get(type, result);
}

} // namespace infer::graph
