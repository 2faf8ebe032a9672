//===- ShapeHelpers.cpp - shape arithmetic shared by graph ops ------------===//

#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"

#include <limits>

using namespace mlir;

namespace infer::graph {

DenseElementsAttr getConstantElements(Value value) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr))) {
    return nullptr;
  }
  return dyn_cast<DenseElementsAttr>(attr);
}

std::optional<SmallVector<int64_t>> getConstantInts(Value value) {
  auto elements = getConstantElements(value);
  if (!elements || !isa<IntegerType>(elements.getElementType())) {
    return std::nullopt;
  }
  SmallVector<int64_t> result;
  for (const APInt &v : elements.getValues<APInt>()) {
    result.push_back(elements.getElementType().isUnsignedInteger()
                         ? static_cast<int64_t>(v.getZExtValue())
                         : v.getSExtValue());
  }
  return result;
}

bool isNone(Value value) { return value && isa<NoneType>(value.getType()); }

RankedTensorType getRanked(Value value) {
  return value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
}

Type withShape(Type like, ArrayRef<int64_t> shape) {
  auto tensor = dyn_cast<TensorType>(like);
  if (!tensor) {
    return like;
  }
  return RankedTensorType::get(shape, tensor.getElementType());
}

Type unrankedLike(Type like) {
  auto tensor = dyn_cast<TensorType>(like);
  if (!tensor) {
    return like;
  }
  return UnrankedTensorType::get(tensor.getElementType());
}

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == 1) {
      result[i] = db;
    } else if (db == 1) {
      result[i] = da;
    } else if (da == kDynamic) {
      result[i] = db;
    } else if (db == kDynamic) {
      result[i] = da;
    } else if (da == db) {
      result[i] = da;
    } else {
      return std::nullopt;
    }
  }
  return result;
}

FailureOr<SmallVector<int64_t>> parseDims(StringRef text) {
  SmallVector<int64_t> dims;
  if (text.empty()) {
    return dims;
  }
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0) {
      return failure();
    }
    dims.push_back(dim);
  }
  return dims;
}

int64_t mulDims(int64_t a, int64_t b) {
  if (a == kDynamic || b == kDynamic) {
    return kDynamic;
  }
  // A product past 64 bits saturates: no tensor can have that many
  // elements, and the size check on every inferred type refuses it.
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product)) {
    return std::numeric_limits<int64_t>::max();
  }
  return product;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return std::nullopt;
  }
  return axis < 0 ? axis + rank : axis;
}

LogicalResult verifyAxis(Operation *op, int64_t axis, Value input) {
  auto ranked = getRanked(input);
  if (ranked && !normalizeAxis(axis, ranked.getRank())) {
    return op->emitOpError("axis ")
           << axis << " is out of range for an input of rank "
           << ranked.getRank();
  }
  return success();
}

LogicalResult verifySingleValue(Operation *op, StringRef name, Value value) {
  auto ranked = isNone(value) ? RankedTensorType() : getRanked(value);
  if (ranked && (ranked.getRank() > 1 || !ranked.hasStaticShape() ||
                 ranked.getNumElements() != 1)) {
    return op->emitOpError("'")
           << name << "' must hold one value, got " << ranked;
  }
  return success();
}

int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t dilation, int64_t padBegin, int64_t padEnd,
                         bool ceilMode) {
  if (in == kDynamic) {
    return kDynamic;
  }
  int64_t effective = dilation * (kernel - 1) + 1;
  int64_t span = in + padBegin + padEnd - effective;
  if (span < 0) {
    return 0;
  }
  int64_t out = ceilMode ? (span + stride - 1) / stride + 1 : span / stride + 1;
  // With ceil_mode, the last window must start inside the input or its
  // leading padding (ONNX and PyTorch agree on this).
  if (ceilMode && (out - 1) * stride >= in + padBegin) {
    --out;
  }
  return out;
}

/// Spatial output sizes of a convolution or pooling window.
SmallVector<int64_t>
windowOutputShape(ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                  std::optional<ArrayRef<int64_t>> strides,
                  std::optional<ArrayRef<int64_t>> dilations,
                  std::optional<ArrayRef<int64_t>> pads, StringRef autoPad,
                  bool ceilMode) {
  SmallVector<int64_t> out;
  int64_t n = inSpatial.size();
  for (int64_t i = 0; i < n; ++i) {
    int64_t stride = strides ? (*strides)[i] : 1;
    int64_t dilation = dilations ? (*dilations)[i] : 1;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      out.push_back(inSpatial[i] == kDynamic
                        ? kDynamic
                        : (inSpatial[i] + stride - 1) / stride);
      continue;
    }
    int64_t begin = 0, end = 0;
    if (autoPad == "NOTSET" && pads) {
      begin = (*pads)[i];
      end = (*pads)[i + n];
    }
    out.push_back(windowOutputSize(inSpatial[i], kernel[i], stride, dilation,
                                   begin, end, ceilMode));
  }
  return out;
}

/// numpy matmul result shape; std::nullopt with `error` set on mismatch.
std::optional<SmallVector<int64_t>>
matmulShape(RankedTensorType a, RankedTensorType b, std::string &error) {
  if (a.getRank() == 0 || b.getRank() == 0) {
    error = "operands must have rank >= 1";
    return std::nullopt;
  }
  SmallVector<int64_t> aShape(a.getShape()), bShape(b.getShape());
  bool aVector = aShape.size() == 1, bVector = bShape.size() == 1;
  if (aVector) {
    aShape.insert(aShape.begin(), 1);
  }
  if (bVector) {
    bShape.push_back(1);
  }
  int64_t k1 = aShape.back(), k2 = bShape[bShape.size() - 2];
  if (k1 != kDynamic && k2 != kDynamic && k1 != k2) {
    error = "contraction dimensions differ: " + std::to_string(k1) + " vs " +
            std::to_string(k2);
    return std::nullopt;
  }
  auto batch = broadcastShapes(ArrayRef<int64_t>(aShape).drop_back(2),
                               ArrayRef<int64_t>(bShape).drop_back(2));
  if (!batch) {
    error = "batch dimensions cannot be broadcast";
    return std::nullopt;
  }
  SmallVector<int64_t> shape = *batch;
  if (!aVector) {
    shape.push_back(aShape[aShape.size() - 2]);
  }
  if (!bVector) {
    shape.push_back(bShape.back());
  }
  return shape;
}

} // namespace infer::graph
