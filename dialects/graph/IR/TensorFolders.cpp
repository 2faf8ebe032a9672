//===- TensorFolders.cpp - folders of shape and data movement ops ---------===//
//
// These folders make shape subgraphs constant: once input shapes are known,
// Shape/Size fold to constants and the Gather/Slice/Concat/Unsqueeze/Cast
// chains that compute Reshape targets fold after them.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

/// Reshapes constant `input` to `resultType` when both are foldable.
static OpFoldResult foldReshapeLike(Value input, Attribute inputAttr,
                                    Type resultType) {
  // Equal types mean equal shapes only when they are static: a reshape of
  // tensor<?x?xf32> to tensor<?x?xf32> may still move dimensions.
  auto ranked = dyn_cast<RankedTensorType>(resultType);
  if (input.getType() == resultType && ranked && ranked.hasStaticShape()) {
    return input;
  }
  auto elements = getFoldableElements(inputAttr);
  auto type = getFoldableType(resultType);
  if (!elements || !type ||
      elements.getNumElements() != type.getNumElements()) {
    return {};
  }
  return elements.reshape(type);
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getInput().getType() == getOutput().getType()) {
    return getInput();
  }
  return {};
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto data = getRanked(getData());
  auto type = dyn_cast<RankedTensorType>(getShape().getType());
  if (!data || !type || !type.hasStaticShape() ||
      !type.getElementType().isInteger(64)) {
    return {};
  }
  int64_t rank = data.getRank();
  auto clamp = [&](int64_t v) {
    v = v < 0 ? v + rank : v;
    return std::clamp<int64_t>(v, 0, rank);
  };
  int64_t start = clamp(getStart());
  int64_t end = clamp(getEnd().value_or(rank));
  SmallVector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) {
    if (data.isDynamicDim(i)) {
      return {};
    }
    dims.push_back(data.getDimSize(i));
  }
  if (type.getNumElements() != static_cast<int64_t>(dims.size())) {
    return {};
  }
  return DenseElementsAttr::get(type, ArrayRef<int64_t>(dims));
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  auto data = getRanked(getData());
  auto type = dyn_cast<RankedTensorType>(getSize().getType());
  if (!data || !data.hasStaticShape() || !type || type.getRank() != 0 ||
      !type.getElementType().isInteger(64)) {
    return {};
  }
  return DenseElementsAttr::get(type, data.getNumElements());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(getData(), adaptor.getData(), getReshaped().getType());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(getData(), adaptor.getData(), getSqueezed().getType());
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(getData(), adaptor.getData(), getExpanded().getType());
}

/// Gathers elements of constant `source` into `type` through `sourceIndex`,
/// which maps a flat result index to a flat source index.
static OpFoldResult gatherElements(DenseElementsAttr source,
                                   RankedTensorType type,
                                   function_ref<int64_t(int64_t)> sourceIndex) {
  int64_t n = type.getNumElements();
  if (isa<IntegerType>(source.getElementType())) {
    auto values = llvm::to_vector(source.getValues<APInt>());
    SmallVector<APInt> result;
    for (int64_t i = 0; i < n; ++i) {
      result.push_back(values[sourceIndex(i)]);
    }
    return DenseElementsAttr::get(type, result);
  }
  auto values = llvm::to_vector(source.getValues<APFloat>());
  SmallVector<APFloat> result;
  for (int64_t i = 0; i < n; ++i) {
    result.push_back(values[sourceIndex(i)]);
  }
  return DenseElementsAttr::get(type, result);
}

/// Splits a flat index of `shape` into coordinates.
static SmallVector<int64_t> delinearize(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    coords[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coords;
}

static int64_t linearize(ArrayRef<int64_t> coords, ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    flat = flat * shape[d] + coords[d];
  }
  return flat;
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  auto type = getFoldableType(getConcatResult().getType());
  if (!type) {
    return {};
  }
  SmallVector<DenseElementsAttr> parts;
  for (Attribute attr : adaptor.getInputs()) {
    auto elements = getFoldableElements(attr);
    if (!elements || elements.getElementType() != type.getElementType()) {
      return {};
    }
    parts.push_back(elements);
  }
  auto axis = normalizeAxis(getAxis(), type.getRank());
  if (!axis) {
    return {};
  }
  // Offsets of each part along the axis.
  SmallVector<int64_t> begins;
  int64_t offset = 0;
  for (DenseElementsAttr part : parts) {
    begins.push_back(offset);
    offset += part.getType().getDimSize(*axis);
  }
  if (offset != type.getDimSize(*axis)) {
    return {};
  }
  int64_t n = type.getNumElements();
  bool isInt = isa<IntegerType>(type.getElementType());
  SmallVector<APInt> ints;
  SmallVector<APFloat> floats;
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<int64_t> coords = delinearize(i, type.getShape());
    size_t p = llvm::upper_bound(begins, coords[*axis]) - begins.begin() - 1;
    coords[*axis] -= begins[p];
    int64_t src = linearize(coords, parts[p].getType().getShape());
    if (isInt) {
      ints.push_back(*(parts[p].getValues<APInt>().begin() + src));
    } else {
      floats.push_back(*(parts[p].getValues<APFloat>().begin() + src));
    }
  }
  return isInt ? DenseElementsAttr::get(type, ints)
               : DenseElementsAttr::get(type, floats);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto data = getFoldableElements(adaptor.getData());
  auto type = getFoldableType(getOutput().getType());
  auto starts = getConstantInts(getStarts());
  if (!data || !type || !starts || type.getRank() != data.getType().getRank()) {
    return {};
  }
  int64_t rank = type.getRank();
  SmallVector<int64_t> axes =
      llvm::to_vector(llvm::seq<int64_t>(0, starts->size()));
  SmallVector<int64_t> steps(starts->size(), 1);
  if (!isNone(getAxes())) {
    auto constant = getConstantInts(getAxes());
    if (!constant) {
      return {};
    }
    axes = *constant;
  }
  if (!isNone(getSteps())) {
    auto constant = getConstantInts(getSteps());
    if (!constant) {
      return {};
    }
    steps = *constant;
  }
  if (axes.size() != starts->size() || steps.size() != starts->size()) {
    return {};
  }
  ArrayRef<int64_t> inShape = data.getType().getShape();
  SmallVector<int64_t> begin(rank, 0), stride(rank, 1);
  for (size_t i = 0; i < axes.size(); ++i) {
    auto axis = normalizeAxis(axes[i], rank);
    if (!axis || steps[i] == 0) {
      return {};
    }
    int64_t dim = inShape[*axis];
    int64_t s = (*starts)[i] < 0 ? (*starts)[i] + dim : (*starts)[i];
    s = steps[i] > 0 ? std::clamp<int64_t>(s, 0, dim)
                     : std::clamp<int64_t>(s, -1, dim - 1);
    begin[*axis] = s;
    stride[*axis] = steps[i];
  }
  return gatherElements(data, type, [&](int64_t flat) {
    SmallVector<int64_t> coords = delinearize(flat, type.getShape());
    for (int64_t d = 0; d < rank; ++d) {
      coords[d] = begin[d] + coords[d] * stride[d];
    }
    return linearize(coords, inShape);
  });
}

/// Transposes a small constant (PyTorch's pad-list idiom: a [n, 2] table
/// reversed and transposed).
OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  auto data = getFoldableElements(adaptor.getData());
  auto type = getFoldableType(getTransposed().getType());
  if (!data || !type || type.getRank() != data.getType().getRank()) {
    return {};
  }
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm =
      getPerm() ? SmallVector<int64_t>(*getPerm())
                : llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank)));
  if (static_cast<int64_t>(perm.size()) != rank) {
    return {};
  }
  ArrayRef<int64_t> inShape = data.getType().getShape();
  return gatherElements(data, type, [&](int64_t flat) {
    SmallVector<int64_t> coords = delinearize(flat, type.getShape());
    SmallVector<int64_t> in(rank);
    for (int64_t d = 0; d < rank; ++d) {
      in[perm[d]] = coords[d];
    }
    return linearize(in, inShape);
  });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = getFoldableElements(adaptor.getData());
  auto indices = getFoldableElements(adaptor.getIndices());
  auto type = getFoldableType(getOutput().getType());
  if (!data || !indices || !type ||
      !isa<IntegerType>(indices.getElementType())) {
    return {};
  }
  ArrayRef<int64_t> dataShape = data.getType().getShape();
  auto axis = normalizeAxis(getAxis(), dataShape.size());
  if (!axis) {
    return {};
  }
  int64_t axisDim = dataShape[*axis];
  SmallVector<int64_t> index;
  for (const APInt &v : indices.getValues<APInt>()) {
    int64_t i = v.getSExtValue();
    i = i < 0 ? i + axisDim : i;
    if (i < 0 || i >= axisDim) {
      return {}; // Out of bounds: let the runtime report it.
    }
    index.push_back(i);
  }
  int64_t indexRank = indices.getType().getRank();
  ArrayRef<int64_t> indexShape = indices.getType().getShape();
  return gatherElements(data, type, [&](int64_t flat) {
    SmallVector<int64_t> coords = delinearize(flat, type.getShape());
    SmallVector<int64_t> src(coords.begin(), coords.begin() + *axis);
    int64_t idx = linearize(ArrayRef<int64_t>(coords).slice(*axis, indexRank),
                            indexShape);
    src.push_back(index[idx]);
    src.append(coords.begin() + *axis + indexRank, coords.end());
    return linearize(src, dataShape);
  });
}
