//===- ConstantData.cpp - f32 constants read and made at compile time -----===//

#include "targets/cpu/ConstantData.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace infer::cpu {

std::optional<std::vector<float>> elementsData(Attribute attr, int64_t count) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (dense && !dense.getElementType().isF32()) {
    return std::nullopt;
  }
  std::optional<std::vector<uint32_t>> bits = elementBits(attr, count);
  if (!bits) {
    return std::nullopt;
  }
  std::vector<float> data(count);
  std::memcpy(data.data(), bits->data(), count * sizeof(float));
  return data;
}

std::optional<std::vector<uint32_t>> elementBits(Attribute attr,
                                                 int64_t count) {
  auto typed = dyn_cast<TypedAttr>(attr);
  auto shaped = typed ? dyn_cast<ShapedType>(typed.getType()) : ShapedType();
  if (!shaped || shaped.getElementTypeBitWidth() != 32) {
    return std::nullopt;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.getNumElements() != count) {
      return std::nullopt;
    }
    std::vector<uint32_t> bits;
    bits.reserve(count);
    if (dense.getElementType().isF32()) {
      for (const APFloat &v : dense.getValues<APFloat>()) {
        bits.push_back(uint32_t(v.bitcastToAPInt().getZExtValue()));
      }
    } else {
      for (const APInt &v : dense.getValues<APInt>()) {
        bits.push_back(uint32_t(v.getZExtValue()));
      }
    }
    return bits;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || blob->getData().size() != size_t(count) * sizeof(uint32_t)) {
    return std::nullopt;
  }
  std::vector<uint32_t> bits(count);
  std::memcpy(bits.data(), blob->getData().data(), count * sizeof(uint32_t));
  return bits;
}

int64_t flushSubnormals(MutableArrayRef<uint32_t> bits) {
  constexpr uint32_t kSign = 0x80000000u, kExponent = 0x7f800000u;
  int64_t flushed = 0;
  for (uint32_t &b : bits) {
    if ((b & kExponent) == 0 && (b & ~kSign) != 0) {
      b &= kSign;
      ++flushed;
    }
  }
  return flushed;
}

int64_t flushSubnormals(MutableArrayRef<float> values) {
  int64_t flushed = 0;
  for (float &v : values) {
    if (std::fpclassify(v) == FP_SUBNORMAL) {
      v = std::signbit(v) ? -0.0f : 0.0f;
      ++flushed;
    }
  }
  return flushed;
}

Attribute bitsElements(RankedTensorType type, ArrayRef<uint32_t> bits,
                       StringRef name) {
  if (bits.size() <= 64) {
    auto raw = ArrayRef<char>(reinterpret_cast<const char *>(bits.data()),
                              bits.size() * sizeof(uint32_t));
    return DenseElementsAttr::getFromRawBuffer(type, raw);
  }
  return DenseResourceElementsAttr::get(
      type, name, HeapAsmResourceBlob::allocateAndCopyInferAlign(bits));
}

Attribute f32Elements(RankedTensorType type, ArrayRef<float> values,
                      StringRef name) {
  if (values.size() <= 64) {
    return DenseElementsAttr::get(type, values);
  }
  return DenseResourceElementsAttr::get(
      type, name, HeapAsmResourceBlob::allocateAndCopyInferAlign(values));
}

} // namespace infer::cpu
