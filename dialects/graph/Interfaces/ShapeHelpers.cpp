//===- ShapeHelpers.cpp - shape arithmetic shared by graph ops ------------===//

#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"

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

} // namespace infer::graph
