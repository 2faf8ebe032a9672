//===- NearestUpsample.cpp - nearest Resize by whole factors --------------===//

#include "passes/lowering/tensor/NearestUpsample.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace infer::lowering {

std::optional<float> sourceCoordinate(StringRef ctm, int64_t x, int64_t out,
                                      float scale) {
  // As ResizeLowering builds it: the output index as f32, one f32
  // operation at a time (volatile: no contraction, no extra precision).
  volatile float xr = static_cast<float>(static_cast<uint64_t>(x));
  volatile float c;
  if (ctm == "asymmetric") {
    c = xr / scale;
  } else if (ctm == "tf_half_pixel_for_nn") {
    volatile float shifted = xr + 0.5f;
    c = shifted / scale;
  } else if (ctm == "half_pixel" || ctm == "pytorch_half_pixel") {
    volatile float shifted = xr + 0.5f;
    volatile float scaled = shifted / scale;
    c = scaled - 0.5f;
    if (ctm == "pytorch_half_pixel" && out == 1) {
      c = 0.0f;
    }
  } else {
    return std::nullopt;
  }
  return c;
}

std::optional<int64_t> nearestSourceIndex(StringRef ctm, StringRef nearestMode,
                                          int64_t x, int64_t in, int64_t out,
                                          float scale) {
  std::optional<float> coordinate = sourceCoordinate(ctm, x, out, scale);
  if (!coordinate) {
    return std::nullopt;
  }
  float c = *coordinate;
  float r;
  if (nearestMode == "floor") {
    r = std::floor(c);
  } else if (nearestMode == "ceil") {
    r = std::ceil(c);
  } else if (nearestMode == "round_prefer_floor" ||
             nearestMode == "round_prefer_ceil") {
    volatile float fl = std::floor(c);
    volatile float frac = c - fl;
    bool up =
        frac > 0.5f || (nearestMode == "round_prefer_ceil" && frac == 0.5f);
    r = up ? fl + 1.0f : fl;
  } else {
    return std::nullopt;
  }
  int64_t index = static_cast<int64_t>(r);
  return std::min(std::max<int64_t>(index, 0), std::max<int64_t>(in - 1, 0));
}

Value lowerWholeFactorNearest(OpBuilder &b, Location loc, Value x,
                              RankedTensorType outType, ArrayRef<int64_t> axes,
                              ArrayRef<float> scales, StringRef ctm,
                              StringRef nearestMode) {
  auto inType = dyn_cast<RankedTensorType>(x.getType());
  if (!inType || inType.getRank() != outType.getRank() ||
      scales.size() != axes.size()) {
    return {};
  }
  int64_t rank = inType.getRank();
  SmallVector<int64_t> factor(rank, 1);
  for (auto [slot, d] : llvm::enumerate(axes)) {
    int64_t in = inType.getDimSize(d), out = outType.getDimSize(d);
    // Whole factors of lengths an f32 counts exactly.
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out) || in <= 0 ||
        out % in != 0 || out >= (int64_t{1} << 24)) {
      return {};
    }
    factor[d] = out / in;
    for (int64_t i = 0; i < out; ++i) {
      std::optional<int64_t> source =
          nearestSourceIndex(ctm, nearestMode, i, in, out, scales[slot]);
      if (!source || *source != i / factor[d]) {
        return {};
      }
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (factor[d] == 1 && inType.getDimSize(d) != outType.getDimSize(d)) {
      return {};
    }
  }
  // The output seen as [.., in_d, factor_d, ..]: the input broadcast along
  // each factor dim.
  SmallVector<int64_t> expanded;
  SmallVector<Value> dynamicSizes;
  SmallVector<ReassociationIndices> groups;
  SmallVector<AffineExpr> inExprs;
  for (int64_t d = 0; d < rank; ++d) {
    ReassociationIndices group;
    group.push_back(static_cast<int64_t>(expanded.size()));
    inExprs.push_back(b.getAffineDimExpr(expanded.size()));
    expanded.push_back(inType.getDimSize(d));
    if (inType.isDynamicDim(d)) {
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, x, d));
    }
    if (factor[d] > 1) {
      group.push_back(static_cast<int64_t>(expanded.size()));
      expanded.push_back(factor[d]);
    }
    groups.push_back(group);
  }
  auto dims = static_cast<unsigned>(expanded.size());
  Value init = tensor::EmptyOp::create(b, loc, expanded,
                                       inType.getElementType(), dynamicSizes);
  SmallVector<AffineMap> maps = {
      AffineMap::get(dims, 0, inExprs, b.getContext()),
      b.getMultiDimIdentityMap(dims)};
  SmallVector<utils::IteratorType> iterators(dims,
                                             utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps, iterators,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, args.front());
      });
  return tensor::CollapseShapeOp::create(b, loc, outType, copy.getResult(0),
                                         groups);
}

} // namespace infer::lowering
