//===- NNOps.cpp - conv, pooling, normalization, matmul ops ---------------===//

#include "dialects/graph/IR/ConvChecks.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

namespace {

/// Checks that `value` (a normalization's scale, bias or statistics) is 1-d
/// with one entry per channel (dim 1) of `input`, where both are known.
LogicalResult verifyPerChannel(Operation *op, StringRef name, Value value,
                               Value input) {
  auto type = getRanked(value);
  auto in = getRanked(input);
  if (type && type.getRank() != 1) {
    return op->emitOpError("'") << name << "' must be 1-d (one per channel), "
                                << "got rank " << type.getRank();
  }
  if (type && in && in.getRank() >= 2 && !type.isDynamicDim(0) &&
      !in.isDynamicDim(1) && type.getDimSize(0) != in.getDimSize(1)) {
    return op->emitOpError("'")
           << name << "' has " << type.getDimSize(0)
           << " values; the input has " << in.getDimSize(1) << " channels";
  }
  return success();
}

/// Checks the window attributes shared by convolution and pooling against the
/// number of spatial dimensions.
LogicalResult verifyWindowAttrs(Operation *op, int64_t spatialRank,
                                std::optional<ArrayRef<int64_t>> kernel,
                                std::optional<ArrayRef<int64_t>> strides,
                                std::optional<ArrayRef<int64_t>> dilations,
                                std::optional<ArrayRef<int64_t>> pads) {
  auto checkSize = [&](StringRef name, std::optional<ArrayRef<int64_t>> values,
                       int64_t expected) -> LogicalResult {
    if (values && static_cast<int64_t>(values->size()) != expected) {
      return op->emitOpError("attribute '")
             << name << "' has " << values->size() << " values, expected "
             << expected << " (one per spatial dimension"
             << (name == "pads" ? ", begin and end" : "") << ")";
    }
    return success();
  };
  if (failed(checkSize("kernel_shape", kernel, spatialRank)) ||
      failed(checkSize("strides", strides, spatialRank)) ||
      failed(checkSize("dilations", dilations, spatialRank)) ||
      failed(checkSize("pads", pads, 2 * spatialRank))) {
    return failure();
  }
  for (auto [name, values] : {std::make_pair("strides", strides),
                              std::make_pair("dilations", dilations),
                              std::make_pair("kernel_shape", kernel)}) {
    if (values && llvm::any_of(*values, [](int64_t v) { return v < 1; })) {
      return op->emitOpError("attribute '") << name << "' must be positive";
    }
  }
  if (pads && llvm::any_of(*pads, [](int64_t v) { return v < 0; })) {
    return op->emitOpError("attribute 'pads' must not be negative");
  }
  return success();
}

/// Result type of a pooling op over `X` (N x C x spatial...).
Type inferPool(Value x, Type resultType, ArrayRef<int64_t> kernel,
               std::optional<ArrayRef<int64_t>> strides,
               std::optional<ArrayRef<int64_t>> dilations,
               std::optional<ArrayRef<int64_t>> pads, StringRef autoPad,
               bool ceilMode) {
  auto input = getRanked(x);
  if (!input || input.getRank() < 2 ||
      static_cast<int64_t>(kernel.size()) != input.getRank() - 2) {
    return resultType;
  }
  SmallVector<int64_t> shape(input.getShape().take_front(2));
  llvm::append_range(shape, windowOutputShape(input.getShape().drop_front(2),
                                              kernel, strides, dilations, pads,
                                              autoPad, ceilMode));
  return withShape(resultType, shape);
}

LogicalResult verifyPool(Operation *op, Value x, ArrayRef<int64_t> kernel,
                         std::optional<ArrayRef<int64_t>> strides,
                         std::optional<ArrayRef<int64_t>> dilations,
                         std::optional<ArrayRef<int64_t>> pads) {
  auto input = getRanked(x);
  int64_t spatialRank = kernel.size();
  if (input && input.getRank() != spatialRank + 2) {
    return op->emitOpError("input of rank ")
           << input.getRank() << " does not match a " << spatialRank
           << "-d kernel (expected rank " << spatialRank + 2 << ")";
  }
  return verifyWindowAttrs(op, spatialRank, kernel, strides, dilations, pads);
}

/// Every result but `none` ones takes the shape of `like`.
void sameShapeAs(Value like, Operation *op, SmallVectorImpl<Type> &inferred) {
  auto ranked = getRanked(like);
  for (Type type : op->getResultTypes()) {
    inferred.push_back(ranked ? withShape(type, ranked.getShape()) : type);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

LogicalResult
infer::graph::verifyConvOperands(Operation *op, Value xValue, Value wValue,
                                 int64_t group,
                                 std::optional<ArrayRef<int64_t>> kernel,
                                 std::optional<ArrayRef<int64_t>> strides,
                                 std::optional<ArrayRef<int64_t>> dilations,
                                 std::optional<ArrayRef<int64_t>> pads) {
  auto x = getRanked(xValue);
  auto w = getRanked(wValue);
  if (x && x.getRank() < 3) {
    return op->emitOpError("input must have rank >= 3 (N x C x D1 ...), got ")
           << x.getRank();
  }
  if (w && w.getRank() < 3) {
    return op->emitOpError(
               "weight must have rank >= 3 (M x C/group x k1 ...), got ")
           << w.getRank();
  }
  if (x && w && x.getRank() != w.getRank()) {
    return op->emitOpError("weight rank ")
           << w.getRank() << " differs from input rank " << x.getRank();
  }
  if (group < 1) {
    return op->emitOpError("'group' must be positive, got ") << group;
  }
  if (x && w && !x.isDynamicDim(1) && !w.isDynamicDim(1) &&
      x.getDimSize(1) != mulDims(w.getDimSize(1), group)) {
    return op->emitOpError("input has ")
           << x.getDimSize(1) << " channels but the weight expects "
           << w.getDimSize(1) << " x group " << group;
  }
  if (w && !w.isDynamicDim(0) && w.getDimSize(0) % group != 0) {
    return op->emitOpError("output channels ")
           << w.getDimSize(0) << " are not divisible by group " << group;
  }
  int64_t spatial = x ? x.getRank() - 2 : (w ? w.getRank() - 2 : -1);
  if (spatial < 0) {
    return success();
  }
  return verifyWindowAttrs(op, spatial, kernel, strides, dilations, pads);
}

LogicalResult ConvOp::verify() {
  return verifyConvOperands(*this, getX(), getW(), getGroup(), getKernelShape(),
                            getStrides(), getDilations(), getPads());
}

LogicalResult ConvOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  auto w = getRanked(getW());
  Type resultType = getY().getType();
  if (!x || !w) {
    inferred.push_back(resultType);
    return success();
  }
  SmallVector<int64_t> kernel(
      getKernelShape().value_or(w.getShape().drop_front(2)));
  SmallVector<int64_t> shape = {x.getDimSize(0), w.getDimSize(0)};
  llvm::append_range(
      shape, windowOutputShape(x.getShape().drop_front(2), kernel, getStrides(),
                               getDilations(), getPads(), getAutoPad(), false));
  inferred.push_back(withShape(resultType, shape));
  return success();
}

LogicalResult GridSampleOp::verify() {
  auto x = getRanked(getX());
  auto grid = getRanked(getGrid());
  if (x && x.getRank() < 3) {
    return emitOpError("input must have rank >= 3, got ") << x.getRank();
  }
  if (!x || !grid) {
    return success();
  }
  if (grid.getRank() != x.getRank()) {
    return emitOpError("'grid' has rank ")
           << grid.getRank() << "; it must have the input's rank "
           << x.getRank();
  }
  int64_t last = grid.getShape().back();
  if (last != kDynamic && last != x.getRank() - 2) {
    return emitOpError("'grid' ends in ")
           << last << " coordinates for " << x.getRank() - 2 << " spatial dims";
  }
  if (!x.isDynamicDim(0) && !grid.isDynamicDim(0) &&
      x.getDimSize(0) != grid.getDimSize(0)) {
    return emitOpError("'grid' has batch ")
           << grid.getDimSize(0) << ", the input " << x.getDimSize(0);
  }
  if (auto y = getRanked(getY()); y && y.getRank() != x.getRank()) {
    return emitOpError("result has rank ")
           << y.getRank() << "; it must have the input's rank " << x.getRank();
  }
  return success();
}

LogicalResult ConvTransposeOp::verify() {
  auto x = getRanked(getX());
  if (x && x.getRank() < 3) {
    return emitOpError("input must have rank >= 3, got ") << x.getRank();
  }
  if (getGroup() < 1) {
    return emitOpError("'group' must be positive, got ") << getGroup();
  }
  if (!x) {
    return success();
  }
  int64_t n = x.getRank() - 2;
  if (auto w = getRanked(getW()); w && w.getRank() != x.getRank()) {
    return emitOpError("'W' has rank ")
           << w.getRank() << "; it must have the input's rank " << x.getRank();
  }
  if (auto shape = getOutputShape();
      shape && static_cast<int64_t>(shape->size()) != n &&
      static_cast<int64_t>(shape->size()) != n + 2) {
    return emitOpError("'output_shape' has ")
           << shape->size() << " entries for " << n << " spatial dims";
  }
  if (auto padding = getOutputPadding();
      padding && static_cast<int64_t>(padding->size()) != n) {
    return emitOpError("'output_padding' has ")
           << padding->size() << " entries for " << n << " spatial dims";
  }
  return verifyWindowAttrs(*this, n, getKernelShape(), getStrides(),
                           getDilations(), getPads());
}

LogicalResult
ConvTransposeOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  auto w = getRanked(getW());
  Type resultType = getY().getType();
  if (!x || !w) {
    inferred.push_back(resultType);
    return success();
  }
  int64_t n = x.getRank() - 2;
  SmallVector<int64_t> shape = {
      x.getDimSize(0),
      w.isDynamicDim(1) ? kDynamic : w.getDimSize(1) * getGroup()};
  if (auto outputShape = getOutputShape()) {
    llvm::append_range(shape, outputShape->take_back(n));
    inferred.push_back(withShape(resultType, shape));
    return success();
  }
  SmallVector<int64_t> kernel(
      getKernelShape().value_or(w.getShape().drop_front(2)));
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = x.getDimSize(i + 2);
    int64_t stride = getStrides() ? (*getStrides())[i] : 1;
    if (in == kDynamic || kernel[i] == kDynamic) {
      shape.push_back(kDynamic);
      continue;
    }
    if (getAutoPad() == "SAME_UPPER" || getAutoPad() == "SAME_LOWER") {
      shape.push_back(in * stride);
      continue;
    }
    int64_t dilation = getDilations() ? (*getDilations())[i] : 1;
    int64_t outPad = getOutputPadding() ? (*getOutputPadding())[i] : 0;
    int64_t padSum = getPads() && getAutoPad() == "NOTSET"
                         ? (*getPads())[i] + (*getPads())[i + n]
                         : 0;
    shape.push_back(stride * (in - 1) + outPad + (kernel[i] - 1) * dilation +
                    1 - padSum);
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

LogicalResult AveragePoolOp::verify() {
  return verifyPool(*this, getX(), getKernelShape(), getStrides(),
                    getDilations(), getPads());
}

LogicalResult AveragePoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferPool(getX(), getY().getType(), getKernelShape(),
                               getStrides(), getDilations(), getPads(),
                               getAutoPad(), getCeilMode() != 0));
  return success();
}

LogicalResult MaxPoolOp::verify() {
  return verifyPool(*this, getX(), getKernelShape(), getStrides(),
                    getDilations(), getPads());
}

LogicalResult MaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  Type y =
      inferPool(getX(), getY().getType(), getKernelShape(), getStrides(),
                getDilations(), getPads(), getAutoPad(), getCeilMode() != 0);
  inferred.push_back(y);
  Type indices = getIndices().getType();
  auto ranked = dyn_cast<RankedTensorType>(y);
  inferred.push_back(ranked ? withShape(indices, ranked.getShape()) : indices);
  return success();
}

LogicalResult LpPoolOp::verify() {
  return verifyPool(*this, getX(), getKernelShape(), getStrides(),
                    getDilations(), getPads());
}

LogicalResult LpPoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferPool(getX(), getY().getType(), getKernelShape(),
                               getStrides(), getDilations(), getPads(),
                               getAutoPad(), getCeilMode() != 0));
  return success();
}

static Type inferGlobalPool(Value x, Type resultType) {
  auto input = getRanked(x);
  if (!input || input.getRank() < 2) {
    return resultType;
  }
  SmallVector<int64_t> shape(input.getShape().take_front(2));
  shape.append(input.getRank() - 2, 1);
  return withShape(resultType, shape);
}

LogicalResult
GlobalAveragePoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferGlobalPool(getX(), getY().getType()));
  return success();
}

LogicalResult
GlobalMaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferGlobalPool(getX(), getY().getType()));
  return success();
}

LogicalResult
GlobalLpPoolOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inferGlobalPool(getX(), getY().getType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

LogicalResult
BatchNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  if (x && x.getRank() < 2) {
    return emitOpError("X must have rank >= 2 (N x C ...), got ")
           << x.getRank();
  }
  for (auto [name, value] :
       {std::make_pair("scale", Value(getScale())),
        std::make_pair("B", Value(getB())),
        std::make_pair("input_mean", Value(getInputMean())),
        std::make_pair("input_var", Value(getInputVar()))}) {
    if (failed(verifyPerChannel(*this, name, value, getX()))) {
      return failure();
    }
  }
  auto scale = getRanked(getScale());
  inferred.push_back(x ? withShape(getY().getType(), x.getShape())
                       : getY().getType());
  for (Value stat : {getRunningMean(), getRunningVar()}) {
    inferred.push_back(scale ? withShape(stat.getType(), scale.getShape())
                             : stat.getType());
  }
  return success();
}

LogicalResult
InstanceNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto input = getRanked(getInput());
  if (input && input.getRank() < 3) {
    return emitOpError("the input must have rank >= 3 (N x C x D1 ...), got ")
           << input.getRank();
  }
  if (failed(verifyPerChannel(*this, "scale", getScale(), getInput())) ||
      failed(verifyPerChannel(*this, "B", getB(), getInput()))) {
    return failure();
  }
  sameShapeAs(getInput(), *this, inferred);
  return success();
}

LogicalResult LayerNormalizationOp::verify() {
  auto x = getRanked(getX());
  if (x && x.getRank() == 0) {
    return emitOpError("X must have rank >= 1");
  }
  if (failed(verifyAxis(*this, getAxis(), getX()))) {
    return failure();
  }
  if (!x) {
    return success();
  }
  // Scale and B broadcast to the normalized dims X.shape[axis:].
  int64_t axis = *normalizeAxis(getAxis(), x.getRank());
  ArrayRef<int64_t> normalized = x.getShape().drop_front(axis);
  for (auto [name, value] : {std::make_pair("Scale", Value(getScale())),
                             std::make_pair("B", getB())}) {
    auto type = getRanked(value);
    if (!type) {
      continue;
    }
    bool fits = type.getRank() <= static_cast<int64_t>(normalized.size());
    for (int64_t i = 1; fits && i <= type.getRank(); ++i) {
      int64_t d = type.getDimSize(type.getRank() - i);
      int64_t n = normalized[normalized.size() - i];
      fits = d == 1 || d == kDynamic || n == kDynamic || d == n;
    }
    if (!fits) {
      return emitOpError("'")
             << name << "' does not broadcast to the normalized dims of X "
             << "(X.shape[" << axis << ":], rank " << normalized.size() << ")";
    }
  }
  return success();
}

namespace {

/// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: input N x C x
/// d1..., target N x d1..., weight C.
LogicalResult verifyLossOperands(Operation *op, Value input, Value target,
                                 Value weight) {
  auto x = getRanked(input);
  auto t = getRanked(target);
  if (x && x.getRank() < 2) {
    return op->emitOpError("the input must have rank >= 2 (N x C x ...), got ")
           << x.getRank();
  }
  if (x && t && t.getRank() != x.getRank() - 1) {
    return op->emitOpError("the target must have rank ")
           << x.getRank() - 1 << " (the input's without C), got "
           << t.getRank();
  }
  if (auto w = getRanked(weight); w && w.getRank() != 1) {
    return op->emitOpError("the weight must be 1-d (one per class), got rank ")
           << w.getRank();
  }
  return success();
}

} // namespace

LogicalResult RoiAlignOp::verify() {
  for (auto [name, value, rank] :
       {std::make_tuple("X", Value(getX()), 4),
        std::make_tuple("rois", Value(getRois()), 2),
        std::make_tuple("batch_indices", Value(getBatchIndices()), 1),
        std::make_tuple("Y", Value(getY()), 4)}) {
    if (auto type = getRanked(value); type && type.getRank() != rank) {
      return emitOpError("'") << name << "' must have rank " << rank
                              << ", got rank " << type.getRank();
    }
  }
  if (auto rois = getRanked(getRois());
      rois && !rois.isDynamicDim(1) && rois.getDimSize(1) != 4) {
    return emitOpError("'rois' must have 4 columns (x1, y1, x2, y2), got ")
           << rois.getDimSize(1);
  }
  return success();
}

LogicalResult NegativeLogLikelihoodLossOp::verify() {
  return verifyLossOperands(*this, getInput(), getTarget(), getWeight());
}

LogicalResult SoftmaxCrossEntropyLossOp::verify() {
  return verifyLossOperands(*this, getScores(), getLabels(), getWeights());
}

LogicalResult
LayerNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(getX());
  inferred.push_back(x ? withShape(getY().getType(), x.getShape())
                       : getY().getType());
  std::optional<int64_t> axis =
      x ? normalizeAxis(getAxis(), x.getRank()) : std::nullopt;
  for (Value stat : {getMean(), getInvStdDev()}) {
    if (!axis) {
      inferred.push_back(stat.getType());
      continue;
    }
    SmallVector<int64_t> shape(x.getShape());
    for (int64_t i = *axis; i < x.getRank(); ++i) {
      shape[i] = 1;
    }
    inferred.push_back(withShape(stat.getType(), shape));
  }
  return success();
}

LogicalResult
GroupNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getX(), *this, inferred);
  return success();
}

LogicalResult
RMSNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getX(), *this, inferred);
  return success();
}

LogicalResult LRNOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getX(), *this, inferred);
  return success();
}

LogicalResult
MeanVarianceNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getX(), *this, inferred);
  return success();
}

LogicalResult
LpNormalizationOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getInput(), *this, inferred);
  return success();
}

LogicalResult DropoutOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  sameShapeAs(getData(), *this, inferred);
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax family
//===----------------------------------------------------------------------===//

static LogicalResult verifySoftmaxAxis(Operation *op, Value input,
                                       int64_t axis) {
  auto ranked = getRanked(input);
  if (ranked && !normalizeAxis(axis, std::max<int64_t>(ranked.getRank(), 1))) {
    return op->emitOpError("axis ")
           << axis << " is out of range for an input of rank "
           << ranked.getRank();
  }
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getInput(), getAxis());
}
LogicalResult LogSoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getInput(), getAxis());
}
LogicalResult HardmaxOp::verify() {
  return verifySoftmaxAxis(*this, getInput(), getAxis());
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::verify() {
  auto a = getRanked(getA());
  auto b = getRanked(getB());
  std::string error;
  if (a && b && !matmulShape(a, b, error)) {
    return emitOpError(error) << " in " << a << " x " << b;
  }
  return success();
}

LogicalResult MatMulOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto a = getRanked(getA());
  auto b = getRanked(getB());
  std::string error;
  std::optional<SmallVector<int64_t>> shape;
  if (a && b) {
    shape = matmulShape(a, b, error);
  }
  inferred.push_back(shape ? withShape(getY().getType(), *shape)
                           : getY().getType());
  return success();
}

LogicalResult GemmOp::verify() {
  auto a = getRanked(getA());
  auto b = getRanked(getB());
  if ((a && a.getRank() != 2) || (b && b.getRank() != 2)) {
    return emitOpError("A and B must be matrices (rank 2)");
  }
  if (auto c = isNone(getC()) ? RankedTensorType() : getRanked(getC());
      c && c.getRank() > 2) {
    return emitOpError("C must broadcast to the result (rank <= 2), got rank ")
           << c.getRank();
  }
  if (a && b) {
    int64_t ka = a.getDimSize(getTransA() ? 0 : 1);
    int64_t kb = b.getDimSize(getTransB() ? 1 : 0);
    if (ka != kDynamic && kb != kDynamic && ka != kb) {
      return emitOpError("contraction dimensions differ: ")
             << ka << " vs " << kb;
    }
  }
  return success();
}

LogicalResult GemmOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  auto a = getRanked(getA());
  auto b = getRanked(getB());
  if (!a || !b || a.getRank() != 2 || b.getRank() != 2) {
    inferred.push_back(getY().getType());
    return success();
  }
  int64_t m = a.getDimSize(getTransA() ? 1 : 0);
  int64_t n = b.getDimSize(getTransB() ? 0 : 1);
  inferred.push_back(withShape(getY().getType(), {m, n}));
  return success();
}

#define GET_OP_CLASSES
#include "dialects/graph/IR/NNOps.cpp.inc"
