//===- TensorOps.cpp - shape inference and verifiers of tensor ops --------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/SymbolicShapes.h"
#include "dialects/graph/IR/TensorLimits.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace infer::graph;

namespace {

/// The result type a shape operand gives: its known entries as dims (a
/// negative one is left to the verifier), the others dynamic; a 1-d shape
/// tensor of known length but unknown values gives a ranked result with
/// every dimension dynamic. Fails, with an error on `op`, when the operand
/// is not 1-d or is longer than kMaxShapeLength.
FailureOr<Type> shapeFromShapeOperand(Operation *op, Value shapeOperand,
                                      Type resultType) {
  if (failed(verifyShapeOperand(op, shapeOperand))) {
    return failure();
  }
  auto ranked = getRanked(shapeOperand);
  auto values = getPartialInts(shapeOperand);
  if (values && llvm::none_of(*values, [](int64_t v) {
        return v < 0 && v != kDynamic;
      })) {
    return withShape(resultType, *values);
  }
  if (ranked && !ranked.isDynamicDim(0)) {
    return withShape(resultType,
                     SmallVector<int64_t>(ranked.getDimSize(0), kDynamic));
  }
  return resultType;
}

} // namespace

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

LogicalResult
ConstantOfShapeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  if (auto value = getValueAttr(); value && value.getNumElements() != 1) {
    return emitOpError("'value' must hold one element, got ")
           << value.getNumElements();
  }
  FailureOr<Type> type =
      shapeFromShapeOperand(*this, getInput(), getOutput().getType());
  if (failed(type)) {
    return failure();
  }
  inferred.push_back(*type);
  return success();
}

LogicalResult ShapeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  if (!data) {
    inferred.push_back(getShape().getType());
    return success();
  }
  int64_t rank = data.getRank();
  auto clamp = [&](int64_t v) {
    v = v < 0 ? v + rank : v;
    return std::clamp<int64_t>(v, 0, rank);
  };
  int64_t start = clamp(getStart());
  int64_t end = clamp(getEnd().value_or(rank));
  inferred.push_back(
      withShape(getShape().getType(), {std::max<int64_t>(end - start, 0)}));
  return success();
}

LogicalResult SizeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(withShape(getSize().getType(), {}));
  return success();
}

//===----------------------------------------------------------------------===//
// Reshaping
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  Type resultType = getReshaped().getType();
  // Entries computed from dynamic dims are unknown (kDynamic): they give
  // dynamic result dims, the known ones keep theirs.
  auto target = getPartialInts(getShape());
  auto data = getRanked(getData());
  if (!target) {
    FailureOr<Type> type = shapeFromShapeOperand(*this, getShape(), resultType);
    if (failed(type)) {
      return failure();
    }
    inferred.push_back(*type);
    return success();
  }
  SmallVector<int64_t> shape;
  int64_t inferIndex = -1;
  for (auto [i, dim] : llvm::enumerate(*target)) {
    if (dim == kDynamic) {
      shape.push_back(kDynamic);
    } else if (dim == 0 && !getAllowzero()) {
      if (!data || static_cast<int64_t>(i) >= data.getRank()) {
        shape.push_back(kDynamic);
        continue;
      }
      shape.push_back(data.getDimSize(i));
    } else if (dim == -1) {
      if (inferIndex >= 0) {
        return emitOpError("shape has more than one -1");
      }
      inferIndex = i;
      shape.push_back(kDynamic);
    } else if (dim < -1) {
      return emitOpError("shape has an invalid dimension ") << dim;
    } else {
      shape.push_back(dim);
    }
  }
  if (inferIndex >= 0 && data && data.hasStaticShape()) {
    int64_t known = 1;
    bool allKnown = true;
    for (auto [i, d] : llvm::enumerate(shape)) {
      if (static_cast<int64_t>(i) == inferIndex) {
        continue;
      }
      if (d == kDynamic) {
        allKnown = false;
      } else {
        known *= d;
      }
    }
    if (allKnown && known != 0) {
      if (data.getNumElements() % known != 0) {
        return emitOpError("cannot reshape ")
               << data << " to " << llvm::ArrayRef<int64_t>(*target);
      }
      shape[inferIndex] = data.getNumElements() / known;
    }
  } else if (inferIndex >= 0 && data) {
    // Dynamic dims in the data that the other entries name again (the
    // batch passed through a shape subgraph) cancel out.
    if (auto size = reshapeWildcardSize(getData(), getShape(), inferIndex,
                                        getAllowzero())) {
      shape[inferIndex] = *size;
    }
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult FlattenOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  if (!input) {
    inferred.push_back(getOutput().getType());
    return success();
  }
  int64_t rank = input.getRank();
  int64_t axis = getAxis() < 0 ? getAxis() + rank : getAxis();
  if (axis < 0 || axis > rank) {
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << rank;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    (i < axis ? outer : inner) =
        mulDims(i < axis ? outer : inner, input.getDimSize(i));
  }
  inferred.push_back(withShape(getOutput().getType(), {outer, inner}));
  return success();
}

LogicalResult SqueezeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  Type resultType = getSqueezed().getType();
  if (!data) {
    inferred.push_back(resultType);
    return success();
  }
  SmallVector<bool> drop(data.getRank(), false);
  if (isNone(getAxes())) {
    for (int64_t i = 0; i < data.getRank(); ++i) {
      if (data.isDynamicDim(i)) {
        inferred.push_back(resultType); // Unknown which dims are 1.
        return success();
      }
      drop[i] = data.getDimSize(i) == 1;
    }
  } else {
    auto axes = getConstantInts(getAxes());
    if (!axes) {
      inferred.push_back(resultType);
      return success();
    }
    for (int64_t axis : *axes) {
      auto normalized = normalizeAxis(axis, data.getRank());
      if (!normalized) {
        return emitOpError("axis ")
               << axis << " is out of range for rank " << data.getRank();
      }
      if (!data.isDynamicDim(*normalized) &&
          data.getDimSize(*normalized) != 1) {
        return emitOpError("cannot squeeze dimension ")
               << axis << " of size " << data.getDimSize(*normalized);
      }
      drop[*normalized] = true;
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < data.getRank(); ++i) {
    if (!drop[i]) {
      shape.push_back(data.getDimSize(i));
    }
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult UnsqueezeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  auto axes = getConstantInts(getAxes());
  Type resultType = getExpanded().getType();
  if (!data || !axes) {
    inferred.push_back(resultType);
    return success();
  }
  int64_t rank = data.getRank() + axes->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : *axes) {
    auto normalized = normalizeAxis(axis, rank);
    if (!normalized || inserted[*normalized]) {
      return emitOpError("axis ") << axis << " is out of range or repeated";
    }
    inserted[*normalized] = true;
  }
  SmallVector<int64_t> shape;
  int64_t next = 0;
  for (int64_t i = 0; i < rank; ++i) {
    shape.push_back(inserted[i] ? 1 : data.getDimSize(next++));
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult TransposeOp::verify() {
  auto data = getRanked(getData());
  auto perm = getPerm();
  if (!perm) {
    return success();
  }
  SmallVector<bool> seen(perm->size(), false);
  for (int64_t p : *perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm->size()) || seen[p]) {
      return emitOpError("'perm' is not a permutation of 0..")
             << perm->size() - 1;
    }
    seen[p] = true;
  }
  if (data && data.getRank() != static_cast<int64_t>(perm->size())) {
    return emitOpError("'perm' has ")
           << perm->size() << " entries for an input of rank "
           << data.getRank();
  }
  return success();
}

LogicalResult TransposeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  if (!data) {
    inferred.push_back(getTransposed().getType());
    return success();
  }
  SmallVector<int64_t> shape;
  int64_t rank = data.getRank();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t p = getPerm() ? (*getPerm())[i] : rank - 1 - i;
    shape.push_back(data.getDimSize(p));
  }
  inferred.push_back(withShape(getTransposed().getType(), shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Concat, split, slice
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  if (getInputs().empty()) {
    return emitOpError("needs at least one input");
  }
  std::optional<int64_t> rank;
  for (Value input : getInputs()) {
    auto ranked = getRanked(input);
    if (!ranked) {
      continue;
    }
    if (rank && *rank != ranked.getRank()) {
      return emitOpError("inputs have different ranks");
    }
    rank = ranked.getRank();
  }
  if (rank && !normalizeAxis(getAxis(), *rank)) {
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << *rank;
  }
  return success();
}

LogicalResult ConcatOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  Type resultType = getConcatResult().getType();
  SmallVector<int64_t> shape;
  std::optional<int64_t> axis;
  for (Value input : getInputs()) {
    auto ranked = getRanked(input);
    if (!ranked) {
      inferred.push_back(resultType);
      return success();
    }
    if (!axis) {
      axis = normalizeAxis(getAxis(), ranked.getRank());
      if (!axis) {
        return emitOpError("axis out of range");
      }
      shape.assign(ranked.getShape().begin(), ranked.getShape().end());
      continue;
    }
    for (int64_t i = 0; i < ranked.getRank(); ++i) {
      int64_t d = ranked.getDimSize(i);
      if (i == *axis) {
        shape[i] =
            (shape[i] == kDynamic || d == kDynamic) ? kDynamic : shape[i] + d;
      } else if (shape[i] == kDynamic) {
        shape[i] = d;
      } else if (d != kDynamic && d != shape[i]) {
        return emitOpError("inputs differ in dimension ")
               << i << ": " << shape[i] << " vs " << d;
      }
    }
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult SplitOp::verify() {
  if (auto n = getNumOutputs(); n && *n < 1) {
    return emitOpError("'num_outputs' must be at least 1, got ") << *n;
  }
  return verifyAxis(*this, getAxis(), getInput());
}

LogicalResult SplitOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  int64_t n = getNumResults();
  std::optional<int64_t> axis =
      input ? normalizeAxis(getAxis(), input.getRank()) : std::nullopt;
  if (!axis) {
    llvm::append_range(inferred, getResultTypes());
    return success();
  }
  int64_t dim = input.getDimSize(*axis);
  SmallVector<int64_t> sizes;
  if (!isNone(getSplit())) {
    if (auto split = getConstantInts(getSplit())) {
      sizes = *split;
    }
  } else if (dim != kDynamic) {
    // Equal parts, the last one smaller when the size does not divide.
    int64_t part = (dim + n - 1) / n;
    for (int64_t i = 0; i < n; ++i) {
      sizes.push_back(std::max<int64_t>(std::min(part, dim - i * part), 0));
    }
  }
  if (!sizes.empty() && static_cast<int64_t>(sizes.size()) != n) {
    return emitOpError("'split' has ")
           << sizes.size() << " sizes for " << n << " outputs";
  }
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<int64_t> shape(input.getShape());
    shape[*axis] = sizes.empty() ? kDynamic : sizes[i];
    inferred.push_back(withShape(getResult(i).getType(), shape));
  }
  return success();
}

LogicalResult SliceOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto data = getRanked(getData());
  Type resultType = getOutput().getType();
  if (!data) {
    inferred.push_back(resultType);
    return success();
  }
  int64_t rank = data.getRank();
  auto starts = getConstantInts(getStarts());
  auto ends = getConstantInts(getEnds());
  std::optional<SmallVector<int64_t>> axes, steps;
  if (!isNone(getAxes())) {
    axes = getConstantInts(getAxes());
  } else if (starts) {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, starts->size()));
  }
  if (!isNone(getSteps())) {
    steps = getConstantInts(getSteps());
  } else if (starts) {
    steps = SmallVector<int64_t>(starts->size(), 1);
  }
  SmallVector<int64_t> shape(data.getShape());
  if (!starts || !ends || !axes || !steps) {
    // Bounds known only at run time: with constant axes only those dims
    // are unknown (PyTorch slices a position table to the sequence length);
    // otherwise only the rank is known.
    if (axes && llvm::all_of(
                    *axes, [&](int64_t a) { return normalizeAxis(a, rank); })) {
      for (int64_t a : *axes) {
        shape[*normalizeAxis(a, rank)] = kDynamic;
      }
      inferred.push_back(withShape(resultType, shape));
      return success();
    }
    inferred.push_back(
        withShape(resultType, SmallVector<int64_t>(rank, kDynamic)));
    return success();
  }
  if (starts->size() != ends->size() || axes->size() != starts->size() ||
      steps->size() != starts->size()) {
    return emitOpError("starts, ends, axes and steps differ in length");
  }
  for (size_t i = 0; i < axes->size(); ++i) {
    auto axis = normalizeAxis((*axes)[i], rank);
    if (!axis) {
      return emitOpError("axis ") << (*axes)[i] << " is out of range";
    }
    int64_t step = (*steps)[i];
    if (step == 0) {
      return emitOpError("steps must not be 0");
    }
    int64_t dim = data.getDimSize(*axis);
    if (dim == kDynamic) {
      shape[*axis] = kDynamic;
      continue;
    }
    auto clampIndex = [&](int64_t v, bool isStart) {
      if (v < 0) {
        v += dim;
      }
      if (step > 0) {
        return std::clamp<int64_t>(v, 0, dim);
      }
      (void)isStart;
      return std::clamp<int64_t>(v, -1, dim - 1);
    };
    int64_t start = clampIndex((*starts)[i], true);
    int64_t end = clampIndex((*ends)[i], false);
    int64_t count = step > 0 ? (end - start + step - 1) / step
                             : (start - end + (-step) - 1) / (-step);
    shape[*axis] = std::max<int64_t>(count, 0);
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}
