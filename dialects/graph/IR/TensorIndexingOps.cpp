//===- TensorIndexingOps.cpp - shape inference of indexing tensor ops -----===//
//
// Gather, Expand, Tile, Pad, Resize, DepthToSpace, SpaceToDepth and TopK:
// the tensor ops whose result shape comes from indices, repeats, pads,
// scales or block sizes (TensorOps.cpp has the constants, reshapes,
// concatenation, split and slice).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/TensorLimits.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

//===----------------------------------------------------------------------===//
// Gather, expand, tile, pad
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  auto indices = getRanked(getIndices());
  if (!data || !indices) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  auto axis = normalizeAxis(getAxis(), data.getRank());
  if (!axis) {
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << data.getRank();
  }
  SmallVector<int64_t> shape(data.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(*axis + 1));
  inferred.push_back(withShape(getOutput().getType(), shape));
  return success();
}

LogicalResult
GatherElementsOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto indices = getRanked(getIndices());
  inferred.push_back(indices
                         ? withShape(getOutput().getType(), indices.getShape())
                         : getOutput().getType());
  return success();
}

LogicalResult ExpandOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  if (failed(verifyShapeOperand(*this, getShape()))) {
    return failure();
  }
  auto input = getRanked(getInput());
  auto target = getPartialInts(getShape());
  if (!input || !target) {
    // Unknown target values: the rank is the larger of the two ranks.
    auto shapeType = getRanked(getShape());
    if (input && shapeType && shapeType.getRank() == 1 &&
        !shapeType.isDynamicDim(0)) {
      int64_t rank = std::max(input.getRank(), shapeType.getDimSize(0));
      inferred.push_back(withShape(getOutput().getType(),
                                   SmallVector<int64_t>(rank, kDynamic)));
    } else {
      inferred.push_back(getOutput().getType());
    }
    return success();
  }
  auto shape = broadcastShapes(input.getShape(), *target);
  if (!shape) {
    return emitOpError("cannot expand ")
           << input << " to shape " << llvm::ArrayRef<int64_t>(*target);
  }
  inferred.push_back(withShape(getOutput().getType(), *shape));
  return success();
}

LogicalResult TileOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  auto repeats = getConstantInts(getRepeats());
  if (!input) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  if (!repeats) {
    inferred.push_back(
        withShape(getOutput().getType(),
                  SmallVector<int64_t>(input.getRank(), kDynamic)));
    return success();
  }
  if (static_cast<int64_t>(repeats->size()) != input.getRank()) {
    return emitOpError("'repeats' has ")
           << repeats->size() << " entries for rank " << input.getRank();
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < input.getRank(); ++i) {
    shape.push_back(mulDims(input.getDimSize(i), (*repeats)[i]));
  }
  inferred.push_back(withShape(getOutput().getType(), shape));
  return success();
}

LogicalResult PadOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  auto pads = getConstantInts(getPads());
  if (!data) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  int64_t rank = data.getRank();
  SmallVector<int64_t> axes;
  if (!isNone(getAxes())) {
    auto constant = getConstantInts(getAxes());
    if (!constant) {
      pads.reset();
    } else {
      for (int64_t a : *constant) {
        auto normalized = normalizeAxis(a, rank);
        if (!normalized) {
          return emitOpError("axis ") << a << " is out of range";
        }
        axes.push_back(*normalized);
      }
    }
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  if (!pads) {
    inferred.push_back(
        withShape(getOutput().getType(), SmallVector<int64_t>(rank, kDynamic)));
    return success();
  }
  int64_t n = axes.size();
  if (static_cast<int64_t>(pads->size()) != 2 * n) {
    return emitOpError("'pads' has ")
           << pads->size() << " values, expected " << 2 * n;
  }
  SmallVector<int64_t> shape(data.getShape());
  for (int64_t i = 0; i < n; ++i) {
    int64_t &d = shape[axes[i]];
    if (d != kDynamic) {
      d += (*pads)[i] + (*pads)[i + n];
    }
  }
  inferred.push_back(withShape(getOutput().getType(), shape));
  return success();
}

LogicalResult RangeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  Type resultType = getOutput().getType();
  auto start = getConstantElements(getStart());
  auto limit = getConstantElements(getLimit());
  auto delta = getConstantElements(getDelta());
  if (!start || !limit || !delta || start.getNumElements() != 1 ||
      limit.getNumElements() != 1 || delta.getNumElements() != 1) {
    inferred.push_back(withShape(resultType, {kDynamic}));
    return success();
  }
  auto asDouble = [](DenseElementsAttr e) -> double {
    if (isa<FloatType>(e.getElementType())) {
      return (*e.getValues<APFloat>().begin()).convertToDouble();
    }
    return static_cast<double>((*e.getValues<APInt>().begin()).getSExtValue());
  };
  double d = asDouble(delta);
  if (d == 0) {
    return emitOpError("delta must not be 0");
  }
  double count = std::ceil((asDouble(limit) - asDouble(start)) / d);
  inferred.push_back(withShape(
      resultType, {std::max<int64_t>(static_cast<int64_t>(count), 0)}));
  return success();
}

//===----------------------------------------------------------------------===//
// Resize, depth/space, top-k
//===----------------------------------------------------------------------===//

LogicalResult ResizeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  Type resultType = getY().getType();
  if (!x) {
    inferred.push_back(resultType);
    return success();
  }
  int64_t rank = x.getRank();
  SmallVector<int64_t> axes;
  if (auto attr = getAxes()) {
    for (int64_t a : *attr) {
      auto normalized = normalizeAxis(a, rank);
      if (!normalized) {
        return emitOpError("axis ") << a << " is out of range";
      }
      axes.push_back(*normalized);
    }
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  SmallVector<int64_t> shape(x.getShape());
  bool policyStretch = getKeepAspectRatioPolicy() == "stretch";
  if (!isNone(getSizes()) && policyStretch) {
    // Entries computed from dynamic dims stay dynamic, the others are known
    // (an export resizes to Concat(Shape(x)[0:2], [h, w])).
    auto sizes = getPartialInts(getSizes());
    if (!sizes || sizes->size() != axes.size()) {
      inferred.push_back(
          withShape(resultType, SmallVector<int64_t>(rank, kDynamic)));
      return success();
    }
    for (auto [axis, size] : llvm::zip(axes, *sizes)) {
      shape[axis] = size;
    }
  } else if (!isNone(getScales())) {
    auto scales = getConstantElements(getScales());
    if (!scales || !isa<FloatType>(scales.getElementType()) ||
        scales.getNumElements() != static_cast<int64_t>(axes.size())) {
      inferred.push_back(
          withShape(resultType, SmallVector<int64_t>(rank, kDynamic)));
      return success();
    }
    for (auto [axis, scale] : llvm::zip(axes, scales.getValues<APFloat>())) {
      if (shape[axis] != kDynamic) {
        shape[axis] = static_cast<int64_t>(
            std::floor(shape[axis] * scale.convertToDouble()));
      }
    }
  } else {
    inferred.push_back(
        withShape(resultType, SmallVector<int64_t>(rank, kDynamic)));
    return success();
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult
DepthToSpaceOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  int64_t b = getBlocksize();
  if (input && input.getRank() != 4) {
    return emitOpError("the input must have rank 4 (N, C, H, W), got rank ")
           << input.getRank();
  }
  if (!input) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  int64_t c = input.getDimSize(1);
  if (c != kDynamic && c % mulDims(b, b) != 0) {
    return emitOpError("channel dim ")
           << c << " is not a multiple of 'blocksize' squared (" << b << "^2)";
  }
  inferred.push_back(withShape(
      getOutput().getType(),
      {input.getDimSize(0), c == kDynamic ? kDynamic : c / (b * b),
       mulDims(input.getDimSize(2), b), mulDims(input.getDimSize(3), b)}));
  return success();
}

LogicalResult
SpaceToDepthOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  int64_t b = getBlocksize();
  if (input && input.getRank() != 4) {
    return emitOpError("the input must have rank 4 (N, C, H, W), got rank ")
           << input.getRank();
  }
  if (!input) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  for (int64_t d : {input.getDimSize(2), input.getDimSize(3)}) {
    if (d != kDynamic && d % b != 0) {
      return emitOpError("spatial dim ")
             << d << " is not a multiple of 'blocksize' " << b;
    }
  }
  auto div = [b](int64_t d) { return d == kDynamic ? kDynamic : d / b; };
  inferred.push_back(withShape(
      getOutput().getType(),
      {input.getDimSize(0), mulDims(input.getDimSize(1), mulDims(b, b)),
       div(input.getDimSize(2)), div(input.getDimSize(3))}));
  return success();
}

LogicalResult TopKOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  if (!x) {
    llvm::append_range(inferred, getResultTypes());
    return success();
  }
  auto axis = normalizeAxis(getAxis(), x.getRank());
  if (!axis) {
    return emitOpError("axis ") << getAxis() << " is out of range";
  }
  SmallVector<int64_t> shape(x.getShape());
  auto k = getConstantInts(getK());
  shape[*axis] = k && k->size() == 1 ? (*k)[0] : kDynamic;
  for (Type type : getResultTypes()) {
    inferred.push_back(withShape(type, shape));
  }
  return success();
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/TensorOps.cpp.inc"
