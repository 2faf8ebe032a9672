//===- QuantizeConvs.cpp - QDQ around the layers calibration marked -------===//
//
// The quantizer's rewrite (infer-compile --quantize=int8): each Conv or
// MatMul that calibration marked `infer.quantize` gets the QDQ form
// quantizers write,
//
//   DQ(Q(x)) -> Conv <- DQ(w8) [, DQ(b32)] -> Q -> DQ -> users
//
// with u8 activations quantized per tensor over the measured range (always
// containing 0, as every quantizer does), s8 weights quantized
// symmetrically per output channel (a Conv's filters, a MatMul's columns;
// scale max|w| / 127) and an i32 bias at scale x_scale * w_scale. A
// MatMul's output stays float (no Q/DQ after it). infer-graph-fold-qdq then
// makes each Conv a QLinearConv, each MatMul a MatMulInteger and a scale. A
// tensor read by several quantized convolutions is quantized once, and a Relu
// or Clip(0, max) after a Conv is dropped when the output is quantized with
// zero point 0 (the u8 saturation does the same). The output's DequantizeLinear
// is marked with the layer's id, so the report can find it.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/graph/Passes.h"
#include "passes/graph/Quantize.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;

namespace infer::graph {
#define GEN_PASS_DEF_QUANTIZECONVSPASS
#include "passes/graph/Passes.h.inc"

bool isQuantizableKind(Operation *op) { return isa<ConvOp, MatMulOp>(op); }

std::string whyNotQuantizable(Operation *op) {
  if (!isa<func::FuncOp>(op->getParentOp())) {
    return "inside a subgraph";
  }
  auto x = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto w = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  auto y = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!x || !w || !y || !x.getElementType().isF32() ||
      !w.getElementType().isF32() || !y.getElementType().isF32()) {
    return "not float32";
  }
  if (!x.hasStaticShape() || !w.hasStaticShape() || !y.hasStaticShape()) {
    return "dynamic shape";
  }
  if (auto conv = dyn_cast<ConvOp>(op)) {
    if (x.getRank() != 4) {
      return "not a 2-D convolution";
    }
    if (conv.getGroup() != 1) {
      return "grouped or depthwise (no int8 kernel)";
    }
    if (!isNone(conv.getB()) && !matchPattern(conv.getB(), m_Constant())) {
      return "bias computed at run time";
    }
  } else if (x.getRank() < 2 || w.getRank() != 2) {
    return "not a matrix times a 2-d matrix";
  }
  if (!matchPattern(op->getOperand(1), m_Constant())) {
    return "weights computed at run time";
  }
  return "";
}

Value quantizedTail(Operation *op) {
  Value y = op->getResult(0);
  if (!y.hasOneUse()) {
    return y;
  }
  Operation *user = *y.getUsers().begin();
  if (auto relu = dyn_cast<ReluOp>(user)) {
    return relu.getY();
  }
  if (auto clip = dyn_cast<ClipOp>(user); clip && clip.getInput() == y) {
    std::optional<SmallVector<float>> min = constantFloats(clip.getMin());
    if (min && min->size() == 1 && min->front() == 0.0f) {
      return clip.getOutput();
    }
  }
  return y;
}

} // namespace infer::graph

namespace {

using namespace infer::graph;

struct QuantParams {
  float scale = 1.0f;
  int64_t zeroPoint = 0;
};

/// u8 parameters for values in [lo, hi], widened to contain 0.
QuantParams activationParams(double lo, double hi) {
  double rmin = std::min(lo, 0.0), rmax = std::max(hi, 0.0);
  QuantParams p;
  if (!std::isfinite(rmin) || !std::isfinite(rmax) || rmax <= rmin) {
    return p;
  }
  p.scale = float((rmax - rmin) / 255.0);
  p.zeroPoint = std::clamp<int64_t>(std::llround(-rmin / p.scale), int64_t(0),
                                    int64_t(255));
  return p;
}

class ConvQuantizer {
public:
  ConvQuantizer(OpBuilder &b)
      : b(b), u8(IntegerType::get(b.getContext(), 8, IntegerType::Unsigned)) {}

  /// Quantizes the marked `layer` (a Conv or a MatMul); false (after an
  /// error) on a bad mark.
  bool run(Operation *layer, DictionaryAttr mark) {
    auto id = mark.getAs<IntegerAttr>("id");
    auto input = mark.getAs<DenseF64ArrayAttr>("input");
    auto output = mark.getAs<DenseF64ArrayAttr>("output");
    if (!id || !input || !output || input.size() != 2 || output.size() != 2) {
      layer->emitError() << "malformed " << kQuantizeMark
                         << " mark: expected {id = N, input = array<f64: min, "
                            "max>, output = array<f64: min, max>}";
      return false;
    }
    Location loc = layer->getLoc();
    Value tail = quantizedTail(layer);
    QuantParams xp = activationParams(input[0], input[1]);
    Value dx = quantize(layer->getOperand(0), xp, loc);

    // Weights per output channel: a Conv's filters (axis 0), a MatMul's
    // columns (axis 1).
    auto wType = cast<RankedTensorType>(layer->getOperand(1).getType());
    SmallVector<float> w = *constantFloats(layer->getOperand(1));
    bool isConv = isa<ConvOp>(layer);
    int64_t axis = isConv ? 0 : 1;
    int64_t filters = wType.getDimSize(axis);
    // Element i belongs to channel (i / inner) % filters.
    int64_t inner = isConv ? int64_t(w.size()) / filters : 1;
    auto channelOf = [&](size_t i) { return (int64_t(i) / inner) % filters; };
    SmallVector<float> wScale(filters, 0.0f), bScale(filters);
    SmallVector<int8_t> wq(w.size());
    for (size_t i = 0; i < w.size(); ++i) {
      wScale[channelOf(i)] = std::max(wScale[channelOf(i)], std::fabs(w[i]));
    }
    for (int64_t f = 0; f < filters; ++f) {
      wScale[f] = wScale[f] > 0.0f ? wScale[f] / 127.0f : 1.0f;
      // As FoldQdq checks it: the product in f32.
      bScale[f] = xp.scale * wScale[f];
    }
    for (size_t i = 0; i < w.size(); ++i) {
      float q = std::nearbyint(w[i] / wScale[channelOf(i)]);
      wq[i] = int8_t(std::clamp(q, -127.0f, 127.0f));
    }
    b.setInsertionPoint(layer);
    auto channelType = RankedTensorType::get({filters}, b.getF32Type());
    Value none = NoneOp::create(b, loc, b.getNoneType());
    Value dw = DequantizeLinearOp::create(
        b, loc, wType,
        constant(RankedTensorType::get(wType.getShape(), b.getI8Type()),
                 ArrayRef<int8_t>(wq), "quantized_weights"),
        constant(channelType, ArrayRef<float>(wScale), "weight_scales"), none,
        axis);
    if (!isConv) {
      // A linear layer's result stays float: computed from the integer
      // product (infer-graph-fold-qdq), with no output range to lose
      // precision to; the layers reading it quantize what they take.
      layer->setOperands({dx, dw});
      layer->setAttr(kQuantizedOutputMark, id);
      return true;
    }
    Value db = layer->getOperand(2);
    if (!isNone(db)) {
      SmallVector<float> bias = *constantFloats(db);
      SmallVector<int32_t> bq(filters);
      for (int64_t f = 0; f < filters; ++f) {
        double q = std::nearbyint(double(bias[f]) / double(bScale[f]));
        bq[f] =
            int32_t(std::clamp<double>(q, std::numeric_limits<int32_t>::min(),
                                       std::numeric_limits<int32_t>::max()));
      }
      db = DequantizeLinearOp::create(
          b, loc, channelType,
          constant(RankedTensorType::get({filters}, b.getI32Type()),
                   ArrayRef<int32_t>(bq), "quantized_bias"),
          constant(channelType, ArrayRef<float>(bScale), "bias_scales"), none,
          /*axis=*/0);
    }
    layer->setOperands({dx, dw, db});

    QuantParams yp = activationParams(output[0], output[1]);
    Value y = layer->getResult(0), dy;
    if (tail != y && yp.zeroPoint == 0) {
      // The activation is the u8 saturation at 0 (and at the range's top).
      Operation *activation = tail.getDefiningOp();
      dy = quantize(y, yp, loc);
      tail.replaceAllUsesWith(dy);
      activation->erase();
    } else {
      dy = quantize(tail, yp, loc);
    }
    dy.getDefiningOp()->setAttr(kQuantizedOutputMark, id);
    return true;
  }

private:
  template <typename T>
  Value constant(RankedTensorType type, ArrayRef<T> values, StringRef name) {
    return ConstantOp::create(b, b.getUnknownLoc(),
                              makeConstantElements(type, values, name));
  }

  /// DQ(Q(v)) with `p`, replacing every other use of `v`; `v` itself when
  /// it is already a per-tensor u8 DequantizeLinear (`p` then becomes its
  /// parameters).
  Value quantize(Value v, QuantParams &p, Location loc) {
    if (auto dq = v.getDefiningOp<DequantizeLinearOp>()) {
      std::optional<SmallVector<float>> scale = constantFloats(dq.getXScale());
      std::optional<SmallVector<int64_t>> zp =
          isNone(dq.getXZeroPoint())
              ? std::nullopt
              : constantInts(dq.getXZeroPoint(), /*isUnsigned=*/true);
      if (scale && zp && scale->size() == 1 && zp->size() == 1 &&
          getElementTypeOrSelf(dq.getX()) == u8) {
        p = {scale->front(), zp->front()};
        return v;
      }
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(v);
    auto type = cast<RankedTensorType>(v.getType());
    Value scale = constant(RankedTensorType::get({}, b.getF32Type()),
                           ArrayRef<float>(p.scale), "scale");
    Value zp = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, u8),
                               b.getIntegerAttr(u8, p.zeroPoint)));
    Value q = QuantizeLinearOp::create(
        b, loc, RankedTensorType::get(type.getShape(), u8), v, scale, zp);
    Value dq = DequantizeLinearOp::create(b, loc, type, q, scale, zp);
    v.replaceAllUsesExcept(dq, q.getDefiningOp());
    return dq;
  }

  OpBuilder &b;
  Type u8;
};

struct QuantizeConvsPass final
    : infer::graph::impl::QuantizeConvsPassBase<QuantizeConvsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, DictionaryAttr>> marked;
    getOperation().walk([&](Operation *op) {
      if (!op->hasAttr(kQuantizeMark)) {
        return;
      }
      auto mark = op->getAttrOfType<DictionaryAttr>(kQuantizeMark);
      op->removeAttr(kQuantizeMark);
      if (mark && isQuantizableKind(op)) {
        marked.emplace_back(op, mark);
      } else {
        op->emitError() << kQuantizeMark
                        << " must be a dictionary on a Conv or a MatMul";
        signalPassFailure();
      }
    });
    OpBuilder b(&getContext());
    ConvQuantizer quantizer(b);
    for (auto [layer, mark] : marked) {
      if (std::string why = whyNotQuantizable(layer); !why.empty()) {
        layer->emitWarning() << "marked for int8 but stays float: " << why;
        continue;
      }
      if (!quantizer.run(layer, mark)) {
        return signalPassFailure();
      }
    }
  }
};

} // namespace
