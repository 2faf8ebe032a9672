//===- RecurrentLowering.cpp - RNN, GRU, LSTM -> scf.for over linalg ------===//
//
// Each direction is one `scf.for` over time whose iteration arguments are
// the hidden (and cell) state and the direction's output sequence. The
// input projection of every time step is one matmul before the loop
// (X . W^T + Wb); each step adds H . R^T + Rb, applies the gate equations
// of the ONNX spec elementwise, and inserts H into the output. layout=1
// (batch first) is transposed to layout 0 on the way in and out.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using scalar::add;
using scalar::maxOf;
using scalar::minOf;
using scalar::mul;
using scalar::sub;

enum class Cell { Rnn, Gru, Lstm };

/// One activation function of the `activations` attribute.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

Value constantLike(OpBuilder &b, Location l, Value like, double v) {
  return scalarConstant(b, l, like.getType(), v);
}

Value sumOfTwo(OpBuilder &b, Location l, ValueRange a) {
  return add(b, l, a[0], a[1]);
}

/// The activation `f` of `x` (a float); names were checked by isKnown.
Value activate(OpBuilder &b, Location l, const Activation &f, Value x) {
  StringRef name = f.name;
  if (name == "Sigmoid") {
    return scalar::sigmoid(b, l, x);
  }
  if (name == "Tanh") {
    return math::TanhOp::create(b, l, x);
  }
  if (name == "Relu") {
    return maxOf(b, l, x, constantLike(b, l, x, 0), false);
  }
  if (name == "Affine") {
    return add(b, l, mul(b, l, x, constantLike(b, l, x, f.alpha)),
               constantLike(b, l, x, f.beta));
  }
  if (name == "LeakyRelu") {
    return scalar::leakyRelu(b, l, x, f.alpha);
  }
  if (name == "ThresholdedRelu") {
    return scalar::thresholdedRelu(b, l, x, f.alpha);
  }
  if (name == "ScaledTanh") {
    return mul(b, l, constantLike(b, l, x, f.alpha),
               math::TanhOp::create(
                   b, l, mul(b, l, x, constantLike(b, l, x, f.beta))));
  }
  if (name == "HardSigmoid") {
    return scalar::hardSigmoid(b, l, x, f.alpha, f.beta);
  }
  if (name == "Elu") {
    return scalar::elu(b, l, x, f.alpha);
  }
  if (name == "Softsign") {
    return scalar::softsign(b, l, x);
  }
  assert(name == "Softplus" && "activation names are checked up front");
  return scalar::softplus(b, l, x);
}

bool isKnown(StringRef n) {
  return llvm::is_contained({"Sigmoid", "Tanh", "Relu", "Affine", "LeakyRelu",
                             "ThresholdedRelu", "ScaledTanh", "HardSigmoid",
                             "Elu", "Softsign", "Softplus"},
                            n);
}

bool usesAlpha(StringRef n) {
  return n == "Affine" || n == "LeakyRelu" || n == "ThresholdedRelu" ||
         n == "ScaledTanh" || n == "HardSigmoid" || n == "Elu";
}
bool usesBeta(StringRef n) {
  return n == "Affine" || n == "ScaledTanh" || n == "HardSigmoid";
}
double defaultAlpha(StringRef n) {
  return n == "LeakyRelu" ? 0.01 : n == "HardSigmoid" ? 0.2 : 1.0;
}
double defaultBeta(StringRef n) { return n == "HardSigmoid" ? 0.5 : 0.0; }

/// The activation functions per direction (f, g[, h]), with their alpha and
/// beta consumed in order from the optional lists, as ONNX Runtime does.
FailureOr<SmallVector<Activation>> readActivations(Operation *op, Cell cell,
                                                   int64_t directions) {
  SmallVector<StringRef> defaults;
  switch (cell) {
  case Cell::Rnn:
    defaults = {"Tanh"};
    break;
  case Cell::Gru:
    defaults = {"Sigmoid", "Tanh"};
    break;
  case Cell::Lstm:
    defaults = {"Sigmoid", "Tanh", "Tanh"};
    break;
  }
  SmallVector<Activation> result;
  auto names = op->getAttrOfType<ArrayAttr>("activations");
  if (!names) {
    for (int64_t d = 0; d < directions; ++d) {
      for (StringRef n : defaults) {
        result.push_back({n.str(), defaultAlpha(n), defaultBeta(n)});
      }
    }
    return result;
  }
  // ONNX's schema default for RNN lists two (for both directions); use as
  // many as the directions need.
  size_t needed = defaults.size() * directions;
  if (names.size() < needed) {
    return failure();
  }
  auto alphas = op->getAttrOfType<DenseF32ArrayAttr>("activation_alpha");
  auto betas = op->getAttrOfType<DenseF32ArrayAttr>("activation_beta");
  size_t nextAlpha = 0, nextBeta = 0;
  for (Attribute a : names.getValue().take_front(needed)) {
    std::string n = cast<StringAttr>(a).getValue().str();
    Activation f{n, defaultAlpha(n), defaultBeta(n)};
    if (usesAlpha(n) && alphas &&
        nextAlpha < static_cast<size_t>(alphas.size())) {
      f.alpha = alphas[nextAlpha++];
    }
    if (usesBeta(n) && betas && nextBeta < static_cast<size_t>(betas.size())) {
      f.beta = betas[nextBeta++];
    }
    result.push_back(f);
  }
  return result;
}

/// Shape entries that stand for the sequence length and the batch, which
/// the generic variant knows only at run time.
constexpr int64_t kSeq = -2, kBatch = -3;

struct RecurrentBuilder {
  OpBuilder &b;
  Location loc;
  Cell cell;
  Type element;
  int64_t seq, batch, hidden, gates; // seq and batch may be kDynamic
  std::optional<double> clip;
  bool linearBeforeReset = false, inputForget = false;
  /// Their sizes (constants when static).
  OpFoldResult seqSize, batchSize;

  /// A shape whose entries may be kSeq and kBatch.
  RankedTensorType type(ArrayRef<int64_t> spec) {
    SmallVector<int64_t> shape;
    for (int64_t d : spec) {
      shape.push_back(d == kSeq ? seq : d == kBatch ? batch : d);
    }
    return RankedTensorType::get(shape, element);
  }

  SmallVector<OpFoldResult> sizes(ArrayRef<int64_t> spec) {
    SmallVector<OpFoldResult> result;
    for (int64_t d : spec) {
      result.push_back(d == kSeq     ? seqSize
                       : d == kBatch ? batchSize
                                     : OpFoldResult(b.getIndexAttr(d)));
    }
    return result;
  }

  /// Zeros of shape `spec`.
  Value zeros(ArrayRef<int64_t> spec) {
    return filledTensor(b, loc, type(spec), scalarConstant(b, loc, element, 0),
                        sizes(spec));
  }

  Value slice(Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> spec,
              RankedTensorType resultType) {
    SmallVector<OpFoldResult> ones(offsets.size(), b.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(
        b, loc, resultType, v, getAsIndexOpFoldResult(b.getContext(), offsets),
        sizes(spec), ones);
  }

  /// `gate` of a [batch, gates*hidden] tensor: [batch, hidden].
  Value gate(Value v, int64_t index) {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t rows = t.getDimSize(0) == batch ? kBatch : t.getDimSize(0);
    return slice(v, {0, index * hidden}, {rows, hidden}, type({rows, hidden}));
  }

  Value ew(ValueRange inputs,
           function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
    return buildElementwise(b, loc, type({kBatch, hidden}), inputs, body);
  }

  Value clipped(OpBuilder &nb, Location l, Value x) {
    if (!clip) {
      return x;
    }
    Value hi = scalarConstant(nb, l, element, *clip);
    Value lo = scalarConstant(nb, l, element, -*clip);
    return minOf(nb, l, maxOf(nb, l, x, lo, false), hi, false);
  }

  /// f(clip(pre(inputs))) elementwise.
  Value act(const Activation &f, ValueRange inputs,
            function_ref<Value(OpBuilder &, Location, ValueRange)> pre) {
    return ew(inputs, [&](OpBuilder &nb, Location l, ValueRange a) {
      return activate(nb, l, f, clipped(nb, l, pre(nb, l, a)));
    });
  }
};

template <typename Op>
struct RecurrentLowering final : OpConversionPattern<Op> {
  RecurrentLowering(const TypeConverter &converter, MLIRContext *ctx, Cell cell)
      : OpConversionPattern<Op>(converter, ctx), cell(cell) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The generic variant: the sequence length and the batch may be
    // dynamic; the weights are static.
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!cast<RankedTensorType>(adaptor.getW().getType()).hasStaticShape() ||
        !cast<RankedTensorType>(adaptor.getR().getType()).hasStaticShape() ||
        cast<RankedTensorType>(adaptor.getX().getType()).isDynamicDim(2)) {
      return rewriter.notifyMatchFailure(op, "dynamic weights or input size");
    }
    Location loc = op.getLoc();
    Value x = adaptor.getX(), w = adaptor.getW(), r = adaptor.getR();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    Type element = xType.getElementType();
    if (!isa<FloatType>(element)) {
      return rewriter.notifyMatchFailure(op, "non-float recurrent layer");
    }
    bool batchFirst = op.getLayout() == 1;
    StringRef direction = op.getDirection();
    int64_t directions = wType.getDimSize(0);
    int64_t gates = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
    int64_t hidden = wType.getDimSize(1) / gates;
    int64_t inputSize = xType.getDimSize(2);
    if (batchFirst) {
      x = transpose(rewriter, loc, x, {1, 0, 2});
      xType = cast<RankedTensorType>(x.getType());
    }
    int64_t seq = xType.getDimSize(0), batch = xType.getDimSize(1);
    FailureOr<SmallVector<Activation>> activations =
        readActivations(op, cell, directions);
    if (failed(activations)) {
      return rewriter.notifyMatchFailure(op,
                                         "activations list of wrong length");
    }
    for (const Activation &f : *activations) {
      if (!isKnown(f.name)) {
        return rewriter.notifyMatchFailure(op,
                                           "unsupported activation " + f.name);
      }
    }
    if (seqLens(op) &&
        (direction == "reverse" || direction == "bidirectional")) {
      return rewriter.notifyMatchFailure(op,
                                         "sequence_lens with a reverse pass");
    }
    int64_t perDirection = activations->size() / directions;

    RecurrentBuilder rb{rewriter, loc,    cell,  element,     seq,
                        batch,    hidden, gates, std::nullopt};
    rb.seqSize = dimSize(rewriter, loc, x, 0);
    rb.batchSize = dimSize(rewriter, loc, x, 1);
    if (auto clip = op.getClip()) {
      rb.clip = clip->convertToDouble();
    }
    if constexpr (std::is_same_v<Op, GRUOp>) {
      rb.linearBeforeReset = op.getLinearBeforeReset() != 0;
    }
    if constexpr (std::is_same_v<Op, LSTMOp>) {
      rb.inputForget = op.getInputForget() != 0;
    }

    Value seqLens =
        RecurrentLowering::seqLens(op) ? adaptor.getSequenceLens() : Value();
    auto initial = [&](Value v) -> Value {
      if (isNone(v)) {
        return Value();
      }
      return batchFirst ? transpose(rewriter, loc, v, {1, 0, 2}) : v;
    };
    Value h0All = initial(adaptor.getInitialH());
    Value c0All, peep;
    if constexpr (std::is_same_v<Op, LSTMOp>) {
      c0All = initial(adaptor.getInitialC());
      if (!isNone(op.getP())) {
        peep = adaptor.getP();
      }
    }
    Value biasAll = isNone(op.getB()) ? Value() : adaptor.getB();

    Value y = rb.zeros({kSeq, directions, kBatch, hidden});
    Value yh = rb.zeros({directions, kBatch, hidden});
    Value yc = yh;
    for (int64_t d = 0; d < directions; ++d) {
      bool reverse =
          direction == "reverse" || (direction == "bidirectional" && d == 1);
      ArrayRef<Activation> fs(activations->data() + d * perDirection,
                              perDirection);
      int64_t gh = gates * hidden;
      Value wd =
          rb.slice(w, {d, 0, 0}, {1, gh, inputSize}, rb.type({gh, inputSize}));
      Value rd = rb.slice(r, {d, 0, 0}, {1, gh, hidden}, rb.type({gh, hidden}));
      // X . W^T (+ Wb) for every step at once: [seq, batch, gates*hidden].
      Value xw = buildMatmul(rewriter, loc, x, wd, rb.type({kSeq, kBatch, gh}),
                             false, true);
      Value rbias;
      if (biasAll) {
        Value wb = rb.slice(biasAll, {d, 0}, {1, gh}, rb.type({gh}));
        rbias = rb.slice(biasAll, {d, gh}, {1, gh}, rb.type({gh}));
        xw = buildElementwise(rewriter, loc, rb.type({kSeq, kBatch, gh}),
                              {xw, wb}, sumOfTwo);
      }
      auto state0 = [&](Value all) {
        return all ? rb.slice(all, {d, 0, 0}, {1, kBatch, hidden},
                              rb.type({kBatch, hidden}))
                   : rb.zeros({kBatch, hidden});
      };
      Value h0 = state0(h0All);
      Value c0 = cell == Cell::Lstm ? state0(c0All) : Value();
      Value yd = rb.zeros({kSeq, kBatch, hidden});
      SmallVector<Value> init = {h0, yd};
      if (c0) {
        init.push_back(c0);
      }
      Value c0Index = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value cSeq = getValueOrCreateConstantIndexOp(rewriter, loc, rb.seqSize);
      Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
      auto loop = scf::ForOp::create(
          rewriter, loc, c0Index, cSeq, c1, init,
          [&](OpBuilder &nb, Location l, Value t, ValueRange args) {
            OpBuilder::InsertionGuard guard(rewriter);
            rewriter.setInsertionPointToStart(nb.getInsertionBlock());
            Value tt = t;
            if (reverse) {
              Value last =
                  seq == ShapedType::kDynamic
                      ? arith::SubIOp::create(
                            rewriter, l, cSeq,
                            arith::ConstantIndexOp::create(rewriter, l, 1))
                            .getResult()
                      : arith::ConstantIndexOp::create(rewriter, l, seq - 1)
                            .getResult();
              tt = arith::SubIOp::create(rewriter, l, last, t);
            }
            Value h = args[0], ySeq = args[1];
            Value c = cell == Cell::Lstm ? args[2] : Value();
            SmallVector<OpFoldResult> offsets = {tt, rewriter.getIndexAttr(0),
                                                 rewriter.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes = rb.sizes({1, kBatch, gh});
            SmallVector<OpFoldResult> ones(3, rewriter.getIndexAttr(1));
            Value xt = tensor::ExtractSliceOp::create(
                rewriter, l, rb.type({kBatch, gh}), xw, offsets, sizes, ones);
            Value hr = buildMatmul(rewriter, l, h, rd, rb.type({kBatch, gh}),
                                   false, true);
            if (rbias) {
              hr = buildElementwise(rewriter, l, rb.type({kBatch, gh}),
                                    {hr, rbias}, sumOfTwo);
            }
            Value hNew, cNew;
            if (cell == Cell::Rnn) {
              hNew = rb.act(fs[0], {xt, hr}, sumOfTwo);
            } else if (cell == Cell::Gru) {
              Value z =
                  rb.act(fs[0], {rb.gate(xt, 0), rb.gate(hr, 0)}, sumOfTwo);
              Value rg =
                  rb.act(fs[0], {rb.gate(xt, 1), rb.gate(hr, 1)}, sumOfTwo);
              Value candidate;
              if (rb.linearBeforeReset) {
                candidate = rb.act(
                    fs[1], {rb.gate(xt, 2), rg, rb.gate(hr, 2)},
                    [](OpBuilder &nb2, Location l2, ValueRange a) {
                      return add(nb2, l2, a[0], mul(nb2, l2, a[1], a[2]));
                    });
              } else {
                Value rh = rb.ew({rg, h},
                                 [](OpBuilder &nb2, Location l2, ValueRange a) {
                                   return mul(nb2, l2, a[0], a[1]);
                                 });
                Value rhRh =
                    buildMatmul(rewriter, l, rh,
                                rb.slice(rd, {2 * hidden, 0}, {hidden, hidden},
                                         rb.type({hidden, hidden})),
                                rb.type({kBatch, hidden}), false, true);
                SmallVector<Value> in = {rb.gate(xt, 2), rhRh};
                if (rbias) {
                  in.push_back(rb.slice(rbias, {2 * hidden}, {hidden},
                                        rb.type({hidden})));
                }
                candidate = rb.act(
                    fs[1], in, [](OpBuilder &nb2, Location l2, ValueRange a) {
                      Value v = add(nb2, l2, a[0], a[1]);
                      return a.size() > 2 ? add(nb2, l2, v, a[2]) : v;
                    });
              }
              hNew = rb.ew({z, candidate, h}, [](OpBuilder &nb2, Location l2,
                                                 ValueRange a) {
                Value one = constantLike(nb2, l2, a[0], 1);
                return add(nb2, l2, mul(nb2, l2, sub(nb2, l2, one, a[0]), a[1]),
                           mul(nb2, l2, a[0], a[2]));
              });
            } else {
              // Gate order i, o, f, c; peepholes P = [Pi, Po, Pf].
              auto peephole = [&](int64_t k) -> Value {
                return peep ? rb.slice(peep, {d, k * hidden}, {1, hidden},
                                       rb.type({hidden}))
                            : Value();
              };
              auto gateWith = [&](int64_t k, int64_t p, Value state) {
                SmallVector<Value> in = {rb.gate(xt, k), rb.gate(hr, k)};
                if (Value pv = peephole(p)) {
                  in.push_back(pv);
                  in.push_back(state);
                }
                return rb.act(
                    fs[0], in, [](OpBuilder &nb2, Location l2, ValueRange a) {
                      Value v = add(nb2, l2, a[0], a[1]);
                      return a.size() > 2
                                 ? add(nb2, l2, v, mul(nb2, l2, a[2], a[3]))
                                 : v;
                    });
              };
              Value ig = gateWith(0, 0, c);
              Value fg =
                  rb.inputForget
                      ? rb.ew({ig},
                              [](OpBuilder &nb2, Location l2, ValueRange a) {
                                return sub(nb2, l2,
                                           constantLike(nb2, l2, a[0], 1),
                                           a[0]);
                              })
                      : gateWith(2, 2, c);
              Value cg =
                  rb.act(fs[1], {rb.gate(xt, 3), rb.gate(hr, 3)}, sumOfTwo);
              cNew = rb.ew({fg, c, ig, cg},
                           [](OpBuilder &nb2, Location l2, ValueRange a) {
                             return add(nb2, l2, mul(nb2, l2, a[0], a[1]),
                                        mul(nb2, l2, a[2], a[3]));
                           });
              Value og = gateWith(1, 1, cNew);
              Value hc = rb.act(
                  fs[2], {cNew},
                  [](OpBuilder &, Location, ValueRange a) { return a[0]; });
              hNew = rb.ew({og, hc},
                           [](OpBuilder &nb2, Location l2, ValueRange a) {
                             return mul(nb2, l2, a[0], a[1]);
                           });
            }
            Value yt = hNew;
            if (seqLens) {
              // Steps past a sequence's length keep its state; its output
              // there is zero.
              auto lenType = cast<RankedTensorType>(seqLens.getType());
              Value lens = reshapeTo(
                  rewriter, l, seqLens,
                  RankedTensorType::get({batch, 1}, lenType.getElementType()));
              // (A dynamic batch: one dynamic dim, sized from the count.)
              Value step = arith::IndexCastOp::create(
                  rewriter, l, lenType.getElementType(), tt);
              auto keep = [&](Value fresh, Value old, bool zeroOut) {
                return buildElementwise(
                    rewriter, l, rb.type({kBatch, hidden}), {lens, fresh, old},
                    [&](OpBuilder &nb2, Location l2, ValueRange a) {
                      Value valid = arith::CmpIOp::create(
                          nb2, l2, arith::CmpIPredicate::slt, step, a[0]);
                      Value other =
                          zeroOut ? scalarConstant(nb2, l2, element, 0) : a[2];
                      return arith::SelectOp::create(nb2, l2, valid, a[1],
                                                     other)
                          .getResult();
                    });
              };
              yt = keep(hNew, h, true);
              hNew = keep(hNew, h, false);
              if (cNew) {
                cNew = keep(cNew, c, false);
              }
            }
            SmallVector<OpFoldResult> yOffsets = {tt, rewriter.getIndexAttr(0),
                                                  rewriter.getIndexAttr(0)};
            SmallVector<OpFoldResult> ySizes = rb.sizes({1, kBatch, hidden});
            Value yNext = tensor::InsertSliceOp::create(rewriter, l, yt, ySeq,
                                                        yOffsets, ySizes, ones);
            // The new state is copied into the state's own tensor once
            // every read of the old one is done, so the loop updates one
            // buffer in place: no buffer passed from step to step (C++
            // arrays cannot express that for HLS) and no allocation per
            // step.
            auto intoState = [&](Value fresh, Value state) {
              return linalg::CopyOp::create(rewriter, l, fresh, state)
                  .getResult(0);
            };
            SmallVector<Value> yields = {intoState(hNew, h), yNext};
            if (cNew) {
              yields.push_back(intoState(cNew, c));
            }
            scf::YieldOp::create(rewriter, l, yields);
          });
      auto insertDirection = [&](Value into, Value part,
                                 ArrayRef<int64_t> offsets,
                                 ArrayRef<int64_t> sizes) {
        SmallVector<int64_t> strides(offsets.size(), 1);
        auto attrs = [&](ArrayRef<int64_t> values) {
          return getAsIndexOpFoldResult(rewriter.getContext(), values);
        };
        return tensor::InsertSliceOp::create(rewriter, loc, part, into,
                                             attrs(offsets), rb.sizes(sizes),
                                             attrs(strides))
            .getResult();
      };
      y = insertDirection(y, loop.getResult(1), {0, d, 0, 0},
                          {kSeq, 1, kBatch, hidden});
      yh = insertDirection(yh, loop.getResult(0), {d, 0, 0},
                           {1, kBatch, hidden});
      if (cell == Cell::Lstm) {
        yc = insertDirection(yc, loop.getResult(2), {d, 0, 0},
                             {1, kBatch, hidden});
      }
    }
    if (batchFirst) {
      y = transpose(rewriter, loc, y, {2, 0, 1, 3});
      yh = transpose(rewriter, loc, yh, {1, 0, 2});
      yc = transpose(rewriter, loc, yc, {1, 0, 2});
    }
    SmallVector<Value> results = {y, yh};
    if (cell == Cell::Lstm) {
      results.push_back(yc);
    }
    // Outputs the model does not use are `none`.
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      if (isa<NoneType>(result.getType())) {
        results[i] = noneValue(rewriter, loc);
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  static bool seqLens(Op op) { return !isNone(op.getSequenceLens()); }

  static Value transpose(OpBuilder &b, Location loc, Value v,
                         ArrayRef<int64_t> perm) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm) {
      shape.push_back(t.getDimSize(p));
      sizes.push_back(dimSize(b, loc, v, p));
    }
    Value init = emptyTensor(
        b, loc, RankedTensorType::get(shape, t.getElementType()), sizes);
    return linalg::TransposeOp::create(b, loc, v, init, perm).getResult()[0];
  }

  Cell cell;
};

} // namespace

void populateRecurrentLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<RecurrentLowering<RNNOp>>(converter, ctx, Cell::Rnn);
  patterns.add<RecurrentLowering<GRUOp>>(converter, ctx, Cell::Gru);
  patterns.add<RecurrentLowering<LSTMOp>>(converter, ctx, Cell::Lstm);
}

} // namespace infer::lowering
