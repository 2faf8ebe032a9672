//===- Interpolation.cpp - sampling taps of Resize and GridSample ---------===//
//
// Where a sample at a fractional coordinate reads, and with what weights:
// linear and cubic (Keys) taps along one dimension, shared by Resize and
// the sampling ops (GridSample, RoiAlign).
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/tensor/Interpolation.h"
#include "passes/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace infer::lowering {

/// `f` (f32) as an index clamped to [0, size - 1].
Value clampedIndex(OpBuilder &b, Location l, Value f, Value size) {
  Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), f);
  return clampIndex(b, l, arith::IndexCastOp::create(b, l, b.getIndexType(), i),
                    size);
}

/// The two (index, weight) neighbours of source coordinate `c`.
SmallVector<std::pair<Value, Value>> linearTaps(OpBuilder &b, Location l,
                                                Value c, Value size) {
  Type f32 = b.getF32Type();
  Value one = scalarConstant(b, l, f32, 1);
  Value fl = math::FloorOp::create(b, l, c);
  Value w = arith::SubFOp::create(b, l, c, fl);
  return {{clampedIndex(b, l, fl, size), arith::SubFOp::create(b, l, one, w)},
          {clampedIndex(b, l, arith::AddFOp::create(b, l, fl, one), size), w}};
}

/// The weights of Keys' cubic kernel (coefficient `a`) for the four pixels
/// at distances r + 1, r, 1 - r and 2 - r from a point.
SmallVector<Value> keysWeights(OpBuilder &b, Location l, Value r, double a) {
  Type f32 = b.getF32Type();
  auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, l, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return arith::SubFOp::create(b, l, p, q).getResult();
  };
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, l, p, q).getResult();
  };
  // Near (|s| <= 1) and far (1 < |s| < 2) parts of the kernel.
  auto near = [&](Value s) {
    return add(mul(mul(sub(mul(fc(a + 2), s), fc(a + 3)), s), s), fc(1));
  };
  auto far = [&](Value s) {
    return sub(mul(add(mul(sub(mul(fc(a), s), fc(5 * a)), s), fc(8 * a)), s),
               fc(4 * a));
  };
  return {far(add(r, fc(1))), near(r), near(sub(fc(1), r)), far(sub(fc(2), r))};
}

/// The four (index, weight) neighbours of source coordinate `c` for cubic
/// interpolation with coefficient `a` (Keys' kernel), as ONNX defines them:
/// the neighbours are base-1 .. base+2 where base is the pixel left of `c`
/// (one further left when `c` is a whole number), so the ratio c - base is in
/// (0, 1]. Out-of-range neighbours repeat the edge pixel, or with
/// `excludeOutside` get weight 0 and the others are renormalized.
SmallVector<std::pair<Value, Value>> cubicTaps(OpBuilder &b, Location l,
                                               Value c, Value size, double a,
                                               bool excludeOutside) {
  Type f32 = b.getF32Type();
  auto fc = [&](double v) { return scalarConstant(b, l, f32, v); };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, l, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return arith::SubFOp::create(b, l, p, q).getResult();
  };
  Value fl = math::FloorOp::create(b, l, c);
  Value whole = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, c, fl);
  Value base = arith::SelectOp::create(b, l, whole, sub(fl, fc(1)), fl);
  SmallVector<Value> weights = keysWeights(b, l, sub(c, base), a);
  SmallVector<Value> positions;
  for (int64_t k = -1; k <= 2; ++k) {
    positions.push_back(add(base, fc(k)));
  }
  if (excludeOutside) {
    Value last = arith::SubFOp::create(
        b, l,
        arith::UIToFPOp::create(
            b, l, f32,
            arith::IndexCastUIOp::create(b, l, b.getI64Type(), size)),
        fc(1));
    Value total = fc(0);
    for (size_t k = 0; k < weights.size(); ++k) {
      Value inside = arith::AndIOp::create(
          b, l,
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, positions[k],
                                fc(0)),
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, positions[k],
                                last));
      weights[k] = arith::SelectOp::create(b, l, inside, weights[k], fc(0));
      total = add(total, weights[k]);
    }
    for (Value &w : weights) {
      w = arith::DivFOp::create(b, l, w, total);
    }
  }
  SmallVector<std::pair<Value, Value>> taps;
  for (auto [p, w] : llvm::zip(positions, weights)) {
    taps.push_back({clampedIndex(b, l, p, size), w});
  }
  return taps;
}

} // namespace infer::lowering
