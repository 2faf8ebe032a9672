//===- ConstantData.cpp - f32 constants read and made at compile time -----===//

#include "targets/cpu/ConstantData.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;

namespace infer::cpu {

std::optional<std::vector<float>> elementsData(Attribute attr, int64_t count) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.getElementType().isF32() || dense.getNumElements() != count) {
      return std::nullopt;
    }
    auto values = dense.getValues<float>();
    return std::vector<float>(values.begin(), values.end());
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || blob->getData().size() != size_t(count) * sizeof(float)) {
    return std::nullopt;
  }
  std::vector<float> data(count);
  std::memcpy(data.data(), blob->getData().data(), count * sizeof(float));
  return data;
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
