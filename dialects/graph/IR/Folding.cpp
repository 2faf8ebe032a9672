//===- Folding.cpp - constant folding helpers for graph ops ---------------===//

#include "dialects/graph/IR/Folding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"

#include <cstring>

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

/// The elements of constant `value` as integers (sign- or zero-extended
/// as `isUnsigned` says) or nullopt.
std::optional<SmallVector<int64_t>> constantInts(Value value, bool isUnsigned) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr))) {
    return std::nullopt;
  }
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() ||
      !isa<IntegerType>(type.getElementType())) {
    return std::nullopt;
  }
  SmallVector<int64_t> values;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    for (const APInt &v : dense.getValues<APInt>()) {
      values.push_back(isUnsigned ? int64_t(v.getZExtValue())
                                  : v.getSExtValue());
    }
    return values;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  unsigned width = type.getElementTypeBitWidth();
  int64_t count = type.getNumElements();
  if (!blob || (width != 8 && width != 32) ||
      blob->getData().size() != size_t(count) * (width / 8)) {
    return std::nullopt;
  }
  const char *data = blob->getData().data();
  for (int64_t i = 0; i < count; ++i) {
    if (width == 8) {
      values.push_back(isUnsigned ? int64_t(uint8_t(data[i]))
                                  : int64_t(int8_t(data[i])));
    } else {
      int32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      values.push_back(isUnsigned ? int64_t(uint32_t(v)) : int64_t(v));
    }
  }
  return values;
}

/// The elements of constant f32 `value`, or nullopt.
std::optional<SmallVector<float>> constantFloats(Value value) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr))) {
    return std::nullopt;
  }
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32()) {
    return std::nullopt;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    return llvm::to_vector(dense.getValues<float>());
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  int64_t count = type.getNumElements();
  if (!blob || blob->getData().size() != size_t(count) * sizeof(float)) {
    return std::nullopt;
  }
  SmallVector<float> values(count);
  std::memcpy(values.data(), blob->getData().data(), count * sizeof(float));
  return values;
}

namespace {
template <typename T>
ElementsAttr makeElements(RankedTensorType type, ArrayRef<T> values,
                          StringRef name) {
  assert(int64_t(values.size()) == type.getNumElements());
  if (values.size() <= 64) {
    return DenseElementsAttr::get(type, values);
  }
  return DenseResourceElementsAttr::get(
      type, name, HeapAsmResourceBlob::allocateAndCopyInferAlign(values));
}
} // namespace

ElementsAttr makeConstantElements(RankedTensorType type, ArrayRef<float> values,
                                  StringRef name) {
  return makeElements(type, values, name);
}
ElementsAttr makeConstantElements(RankedTensorType type,
                                  ArrayRef<int8_t> values, StringRef name) {
  return makeElements(type, values, name);
}
ElementsAttr makeConstantElements(RankedTensorType type,
                                  ArrayRef<int32_t> values, StringRef name) {
  return makeElements(type, values, name);
}

} // namespace infer::graph
