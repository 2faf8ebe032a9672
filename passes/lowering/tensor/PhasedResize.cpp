//===- PhasedResize.cpp - linear and cubic Resize by whole factors --------===//

#include "passes/lowering/tensor/PhasedResize.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/nn/Windows.h"
#include "passes/lowering/tensor/NearestUpsample.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace infer::lowering {
namespace {

/// The most phases (the product of the factors) lowered this way; beyond
/// it the IR grows with the factors and the general form is kept.
constexpr int64_t kMaxPhases = 64;

/// One phase of one axis: output q of the phase reads the input at
/// q + first + j with weights[j].
struct AxisPhase {
  int64_t first = 0;
  SmallVector<float> weights;
};

/// The taps of a sample at coordinate `c`, as linearTaps and cubicTaps
/// (Interpolation.cpp) place and weigh them, without the zero-weight taps
/// at either end.
AxisPhase tapsAt(float c, const ResizeMode &mode) {
  AxisPhase phase;
  float fl = std::floor(c);
  if (mode.mode == "linear") {
    float w = c - fl;
    phase.first = static_cast<int64_t>(fl);
    phase.weights = {1.0f - w, w};
  } else {
    // Keys' kernel at distances r + 1, r, 1 - r, 2 - r, r in (0, 1].
    float base = c == fl ? fl - 1.0f : fl;
    float r = c - base;
    auto a = static_cast<float>(mode.cubicA);
    auto near = [&](float s) {
      return ((a + 2.0f) * s - (a + 3.0f)) * s * s + 1.0f;
    };
    auto far = [&](float s) {
      return ((a * s - 5.0f * a) * s + 8.0f * a) * s - 4.0f * a;
    };
    phase.first = static_cast<int64_t>(base) - 1;
    phase.weights = {far(r + 1.0f), near(r), near(1.0f - r), far(2.0f - r)};
  }
  while (phase.weights.size() > 1 && phase.weights.back() == 0.0f) {
    phase.weights.pop_back();
  }
  while (phase.weights.size() > 1 && phase.weights.front() == 0.0f) {
    phase.weights.erase(phase.weights.begin());
    ++phase.first;
  }
  return phase;
}

/// The static slice of `source` at `offsets` of `sizes` (unit steps).
Value sliceOf(OpBuilder &b, Location loc, Value source,
              ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  auto attrs = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(
        values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
  };
  SmallVector<int64_t> ones(offsets.size(), 1);
  return tensor::ExtractSliceOp::create(b, loc, source, attrs(offsets),
                                        attrs(sizes), attrs(ones));
}

/// `x` with `low[i]` copies of its first element before spatial dim i and
/// `high[i]` of its last after (Pad's edge mode): x written once into the
/// result, then each dim's bands copied from the result's own edge slices,
/// dims before it already padded (so the corners repeat the corner).
Value edgePadded(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t i = 0; i + 2 < rank; ++i) {
    shape[i + 2] += low[i] + high[i];
  }
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<int64_t> at(rank, 0), ones(rank, 1);
  for (int64_t i = 0; i + 2 < rank; ++i) {
    at[i + 2] = low[i];
  }
  Value y = tensor::InsertSliceOp::create(
      b, loc, x, emptyTensor(b, loc, paddedType), ValueRange{}, ValueRange{},
      ValueRange{}, at, type.getShape(), ones);
  for (int64_t i = 0; i + 2 < rank; ++i) {
    int64_t d = i + 2, in = type.getDimSize(d);
    // The band's extent: padded along the dims before d, x's along those
    // after.
    SmallVector<int64_t> offsets(rank, 0), sizes(shape);
    for (int64_t e = d + 1; e < rank; ++e) {
      offsets[e] = low[e - 2];
      sizes[e] = type.getDimSize(e);
    }
    sizes[d] = 1;
    auto copyRow = [&](int64_t from, int64_t to) {
      SmallVector<int64_t> src(offsets), dst(offsets);
      src[d] = from;
      dst[d] = to;
      Value row = sliceOf(b, loc, y, src, sizes);
      y = tensor::InsertSliceOp::create(b, loc, row, y, ValueRange{},
                                        ValueRange{}, ValueRange{}, dst, sizes,
                                        ones);
    };
    for (int64_t j = 0; j < low[i]; ++j) {
      copyRow(low[i], j);
    }
    for (int64_t j = 0; j < high[i]; ++j) {
      copyRow(low[i] + in - 1, low[i] + in + j);
    }
  }
  return y;
}

} // namespace

Value lowerWholeFactorInterpolation(OpBuilder &b, Location loc, Value x,
                                    RankedTensorType outType,
                                    ArrayRef<int64_t> axes,
                                    ArrayRef<float> scales,
                                    const ResizeMode &mode) {
  auto inType = dyn_cast<RankedTensorType>(x.getType());
  if (!inType || !inType.hasStaticShape() || !outType.hasStaticShape() ||
      inType.getRank() != outType.getRank() || inType.getRank() < 3 ||
      !inType.getElementType().isF32() || !outType.getElementType().isF32() ||
      (mode.mode != "linear" && mode.mode != "cubic") ||
      (mode.mode == "cubic" && mode.excludeOutside) ||
      axes.size() != scales.size()) {
    return Value();
  }
  int64_t rank = inType.getRank(), s = rank - 2;
  SmallVector<int64_t> factors(rank, 1);
  for (auto [d, scale] : llvm::zip(axes, scales)) {
    int64_t in = inType.getDimSize(d), out = outType.getDimSize(d);
    if (in == out) {
      continue; // Unresized: ResizeLowering's identity.
    }
    if (d < 2 || in == 0 || scale < 1.0f || scale != std::floor(scale) ||
        out != static_cast<int64_t>(scale) * in) {
      return Value();
    }
    factors[d] = static_cast<int64_t>(scale);
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (factors[d] == 1 && inType.getDimSize(d) != outType.getDimSize(d)) {
      return Value();
    }
  }
  int64_t count = 1;
  for (int64_t f : factors) {
    count *= f;
  }
  if (count == 1 || count > kMaxPhases) {
    return Value();
  }
  // Each spatial dim's phases, and the edge padding they read.
  SmallVector<SmallVector<AxisPhase>> phases(s);
  SmallVector<int64_t> low(s, 0), high(s, 0);
  for (int64_t i = 0; i < s; ++i) {
    int64_t f = factors[i + 2];
    if (f == 1) {
      phases[i].push_back(AxisPhase{0, {1.0f}});
      continue;
    }
    for (int64_t r = 0; r < f; ++r) {
      // Output f * q + r reads q + this, up to rounding. half_pixel_symmetric
      // differs from half_pixel by an offset that is 0 at out = f * in;
      // tf_half_pixel_for_nn is nearest's.
      StringRef ctm =
          mode.ctm == "half_pixel_symmetric" ? "half_pixel" : mode.ctm;
      std::optional<float> c =
          ctm == "tf_half_pixel_for_nn"
              ? std::nullopt
              : sourceCoordinate(ctm, r, f * inType.getDimSize(i + 2),
                                 static_cast<float>(f));
      if (!c) {
        return Value();
      }
      AxisPhase p = tapsAt(*c, mode);
      low[i] = std::max(low[i], -p.first);
      high[i] = std::max(high[i],
                         p.first + static_cast<int64_t>(p.weights.size()) - 1);
      phases[i].push_back(std::move(p));
    }
  }
  Value padded = edgePadded(b, loc, x, low, high);
  int64_t channels = inType.getDimSize(1);
  Type f32 = b.getF32Type();
  Value y = emptyTensor(b, loc, outType);
  SmallVector<int64_t> noPads(2 * s, 0);
  ConvGeometry depthwise{SmallVector<int64_t>(s, 1), SmallVector<int64_t>(s, 1),
                         ArrayRef(noPads), "NOTSET", channels};
  for (int64_t index = 0; index < count; ++index) {
    SmallVector<const AxisPhase *> phase(s);
    SmallVector<int64_t> r(s), offsets(rank, 0), sizes(inType.getShape());
    SmallVector<int64_t> fShape = {channels, 1};
    bool copy = true;
    int64_t taps = 1;
    for (int64_t i = s - 1, rest = index; i >= 0; --i) {
      r[i] = rest % factors[i + 2];
      rest /= factors[i + 2];
      phase[i] = &phases[i][r[i]];
      auto n = static_cast<int64_t>(phase[i]->weights.size());
      offsets[i + 2] = low[i] + phase[i]->first;
      sizes[i + 2] += n - 1;
      copy &= n == 1 && phase[i]->weights[0] == 1.0f;
      taps *= n;
    }
    for (const AxisPhase *p : phase) {
      fShape.push_back(static_cast<int64_t>(p->weights.size()));
    }
    Value out = sliceOf(b, loc, padded, offsets, sizes);
    if (!copy) {
      // The stencil (the product of each dim's weights), one per channel.
      SmallVector<float> stencil;
      for (int64_t t = 0; t < taps; ++t) {
        float w = 1.0f;
        for (int64_t i = s - 1, rest = t; i >= 0; --i) {
          auto n = static_cast<int64_t>(phase[i]->weights.size());
          w *= phase[i]->weights[rest % n];
          rest /= n;
        }
        stencil.push_back(w);
      }
      SmallVector<float> values;
      for (int64_t c = 0; c < channels; ++c) {
        values.append(stencil);
      }
      Value filter = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get(fShape, f32),
                                 ArrayRef<float>(values)));
      auto pType = RankedTensorType::get(inType.getShape(), f32);
      out = castTo(b, loc,
                   convolve(b, loc, out, filter, pType, depthwise,
                            scalarConstant(b, loc, f32, 0)),
                   pType);
    }
    SmallVector<int64_t> at(rank, 0), steps(rank, 1);
    for (int64_t i = 0; i < s; ++i) {
      at[i + 2] = r[i];
      steps[i + 2] = factors[i + 2];
    }
    y = tensor::InsertSliceOp::create(b, loc, out, y, ValueRange{},
                                      ValueRange{}, ValueRange{}, at,
                                      inType.getShape(), steps);
  }
  return y;
}

} // namespace infer::lowering
