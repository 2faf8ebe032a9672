//===- ConvTransposeLowering.cpp - transposed convolutions -> linalg ------===//
//
// ConvTranspose over static channel counts and any batch and spatial
// sizes: as one matmul per kernel tap when its windows tile the output
// exactly; with static sizes and no dilation as one ordinary convolution
// per stride phase; else as a gather of the input positions each output
// reads.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/Passes.h"
#include "passes/lowering/ScalarMath.h"
#include "passes/lowering/nn/Windows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace infer::graph;

namespace infer::lowering {
namespace {

using mlir::utils::IteratorType;
using scalar::add;
using scalar::mul;

/// ConvTranspose whose windows tile the output exactly (kernel == stride,
/// no dilation, padding or output padding, one group: the 2x2 stride-2
/// upsampling of detection and segmentation heads): each output element
/// gets one product sum, y[n, co, o*s + k] = sum_ci x[n, ci, o] w[ci, co, k]
/// (+ bias). That is one matmul of the filters as [co, k..., ci] (w
/// transposed: at compile time when constant) and x, t[n, co, k..., o]
/// (output positions innermost, the register-tiled kernels' form: co and
/// the taps one M dim, so one pass over x), then one copy interleaving
/// the taps into y with the bias added.
Value tiledConvTranspose(OpBuilder &b, Location loc, Value x, Value w,
                         Value bias) {
  MLIRContext *ctx = b.getContext();
  SizeMath m(b, loc);
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = xType.getElementType();
  int64_t s = xType.getRank() - 2;
  int64_t filters = wType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  SmallVector<OpFoldResult> xSizes = sizesOf(b, loc, x);
  ArrayRef<OpFoldResult> in = ArrayRef(xSizes).drop_front(2);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  // The filters as [co, k_1..k_s, ci]: A's rows co and taps, K innermost.
  SmallVector<int64_t> permutation = {1};
  for (int64_t i = 0; i < s; ++i) {
    permutation.push_back(2 + i);
  }
  permutation.push_back(0);
  SmallVector<int64_t> wShape;
  for (int64_t i : permutation) {
    wShape.push_back(wType.getDimSize(i));
  }
  auto wtType = RankedTensorType::get(wShape, element);
  Value wt;
  if (std::optional<SmallVector<float>> values = graph::constantFloats(w)) {
    // Element (co, k, ci) of the result is w's (ci, co, k).
    int64_t taps = wtType.getNumElements() / (filters * wShape.back());
    SmallVector<float> moved;
    moved.reserve(values->size());
    for (int64_t co = 0; co < filters; ++co) {
      for (int64_t k = 0; k < taps; ++k) {
        for (int64_t ci = 0; ci < wShape.back(); ++ci) {
          moved.push_back((*values)[(ci * filters + co) * taps + k]);
        }
      }
    }
    wt = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wtType, ArrayRef<float>(moved)));
  } else {
    wt = linalg::TransposeOp::create(b, loc, w, emptyTensor(b, loc, wtType),
                                     permutation)
             .getResult()[0];
  }
  // t: dims n, k_1..k_s, co, o_1..o_s, ci (reduction).
  int64_t dims = 3 + 2 * s;
  SmallVector<AffineExpr> xExprs = {d(0), d(dims - 1)};
  SmallVector<AffineExpr> wExprs = {d(1 + s)};
  SmallVector<AffineExpr> tExprs = {d(0), d(1 + s)};
  SmallVector<OpFoldResult> tSizes = {xSizes[0], m.constant(filters)};
  for (int64_t i = 0; i < s; ++i) {
    xExprs.push_back(d(2 + s + i));
    wExprs.push_back(d(1 + i));
    tExprs.push_back(d(1 + i));
    tSizes.push_back(m.constant(kernel[i]));
  }
  wExprs.push_back(d(dims - 1));
  for (int64_t i = 0; i < s; ++i) {
    tExprs.push_back(d(2 + s + i));
    tSizes.push_back(in[i]);
  }
  RankedTensorType tType = typeOfSizes(tSizes, element);
  SmallVector<IteratorType> iterators(dims - 1, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  Value t = linalg::GenericOp::create(
                b, loc, TypeRange{tType}, ValueRange{x, wt},
                ValueRange{filledTensor(
                    b, loc, tType, scalarConstant(b, loc, element, 0), tSizes)},
                SmallVector<AffineMap>{AffineMap::get(dims, 0, xExprs, ctx),
                                       AffineMap::get(dims, 0, wExprs, ctx),
                                       AffineMap::get(dims, 0, tExprs, ctx)},
                iterators,
                [&](OpBuilder &nb, Location l, ValueRange args) {
                  linalg::YieldOp::create(
                      nb, l, add(nb, l, args[2], mul(nb, l, args[0], args[1])));
                })
                .getResult(0);
  // y viewed as [n, co, o_1, k_1, ..., o_s, k_s]: dims n, co, (o_i, k_i)...
  SmallVector<OpFoldResult> eSizes = {xSizes[0], m.constant(filters)};
  SmallVector<OpFoldResult> ySizes = eSizes;
  SmallVector<AffineExpr> fromT = {d(0), d(1)};
  for (int64_t i = 0; i < s; ++i) {
    eSizes.push_back(in[i]);
    eSizes.push_back(m.constant(kernel[i]));
    ySizes.push_back(m.mul(in[i], kernel[i]));
    fromT.push_back(d(3 + 2 * i));
  }
  for (int64_t i = 0; i < s; ++i) {
    fromT.push_back(d(2 + 2 * i));
  }
  int64_t eDims = 2 + 2 * s;
  RankedTensorType eType = typeOfSizes(eSizes, element);
  SmallVector<Value> inputs = {t};
  SmallVector<AffineMap> maps = {AffineMap::get(eDims, 0, fromT, ctx)};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(AffineMap::get(eDims, 0, {d(1)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(eDims, ctx));
  Value y = linalg::GenericOp::create(
                b, loc, TypeRange{eType}, inputs,
                ValueRange{emptyTensor(b, loc, eType, eSizes)}, maps,
                SmallVector<IteratorType>(eDims, IteratorType::parallel),
                [&](OpBuilder &nb, Location l, ValueRange args) {
                  Value v = args[0];
                  if (bias) {
                    v = add(nb, l, v, args[1]);
                  }
                  linalg::YieldOp::create(nb, l, v);
                })
                .getResult(0);
  return reshapeToSizes(b, loc, y, ySizes);
}

/// One stride phase of a ConvTranspose along a spatial dim: the outputs
/// o = q * stride + r (q < outputs) get the kernel taps k = rho + j *
/// stride (j < taps) only, tap j at input position q + shift - j, where
/// r + pad_begin = shift * stride + rho. With the taps in reverse order
/// that is an ordinary stride-1 correlation: output q reads x from
/// q + first on, first = shift - (taps - 1).
struct Phase {
  int64_t outputs = 0, rho = 0, taps = 0, first = 0;
};

Phase phaseOf(int64_t r, int64_t stride, int64_t kernel, int64_t padBegin,
              int64_t out) {
  Phase p;
  p.outputs = r < out ? llvm::divideCeil(out - r, stride) : 0;
  int64_t shifted = r + padBegin;
  int64_t shift = llvm::divideFloorSigned(shifted, stride);
  p.rho = shifted - shift * stride;
  p.taps = p.rho < kernel ? llvm::divideCeil(kernel - p.rho, stride) : 0;
  p.first = shift - (p.taps - 1);
  return p;
}

/// The phase's filters, F x C/group x taps...: filter m (m' of group g),
/// channel c of the group, reversed tap j at w[g * C/group + c, m',
/// rho + (taps - 1 - j) * stride]. Computed here from constant f32
/// weights (so the targets see constant filters to pack), else gathered
/// by a generic.
Value phaseFilters(OpBuilder &b, Location loc, Value w, int64_t group,
                   ArrayRef<Phase> phase, ArrayRef<int64_t> strides,
                   std::optional<SmallVector<float>> &weights) {
  MLIRContext *ctx = b.getContext();
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t s = wType.getRank() - 2;
  int64_t cPerGroup = wType.getDimSize(0) / group;
  int64_t mPerGroup = wType.getDimSize(1);
  // Dims g, m', c, j...: the filters as [group][m'][c][taps...].
  SmallVector<int64_t> shape = {group, mPerGroup, cPerGroup};
  SmallVector<int64_t> flat = {group * mPerGroup, cPerGroup};
  for (const Phase &p : phase) {
    shape.push_back(p.taps);
    flat.push_back(p.taps);
  }
  auto flatType = RankedTensorType::get(flat, wType.getElementType());
  if (weights) {
    ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
    int64_t taps = 1;
    for (const Phase &p : phase) {
      taps *= p.taps;
    }
    SmallVector<float> values;
    values.reserve(group * mPerGroup * cPerGroup * taps);
    SmallVector<int64_t> j(s, 0);
    for (int64_t g = 0; g < group; ++g) {
      for (int64_t mo = 0; mo < mPerGroup; ++mo) {
        for (int64_t c = 0; c < cPerGroup; ++c) {
          for (int64_t t = 0; t < taps; ++t) {
            // Tap t's reversed position per dim, then w's flat index.
            int64_t rest = t, at = (g * cPerGroup + c) * mPerGroup + mo;
            for (int64_t d = s - 1; d >= 0; --d) {
              j[d] = rest % phase[d].taps;
              rest /= phase[d].taps;
            }
            for (int64_t d = 0; d < s; ++d) {
              at = at * kernel[d] + phase[d].rho +
                   (phase[d].taps - 1 - j[d]) * strides[d];
            }
            values.push_back((*weights)[at]);
          }
        }
      }
    }
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(flatType, ArrayRef<float>(values)));
  }
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  int64_t dims = 3 + s;
  SmallVector<AffineExpr> wExprs = {d(0) * cPerGroup + d(2), d(1)};
  for (int64_t i = 0; i < s; ++i) {
    wExprs.push_back((phase[i].taps - 1 - d(3 + i)) * strides[i] +
                     phase[i].rho);
  }
  auto type = RankedTensorType::get(shape, wType.getElementType());
  Value gathered =
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{w},
          ValueRange{emptyTensor(b, loc, type)},
          SmallVector<AffineMap>{AffineMap::get(dims, 0, wExprs, ctx),
                                 AffineMap::getMultiDimIdentityMap(dims, ctx)},
          SmallVector<IteratorType>(dims, IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          })
          .getResult(0);
  return reshapeTo(b, loc, gathered, flatType);
}

/// ConvTranspose with static sizes and no dilation as one ordinary
/// convolution per stride phase (see Phase): stride^s convolutions of x,
/// each with its share of the taps, whose outputs interleave into y. The
/// targets run those as their convolution kernels, every product a useful
/// one (the per-element gather below tests each tap at each output). x is
/// padded once, as far as the phase reaching furthest needs, and each
/// phase reads its window of that.
Value phasedConvTranspose(OpBuilder &b, Location loc, Value x, Value w,
                          Value bias, RankedTensorType yType, int64_t group,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> padBegin) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = yType.getElementType();
  int64_t s = xType.getRank() - 2;
  int64_t filters = yType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  // Each dim's phases, and the padding before and after x they need.
  SmallVector<SmallVector<Phase>> phases(s);
  SmallVector<OpFoldResult> before, after, ones(s, b.getIndexAttr(1));
  for (int64_t i = 0; i < s; ++i) {
    int64_t in = xType.getDimSize(i + 2), low = 0, high = 0;
    for (int64_t r = 0; r < strides[i]; ++r) {
      Phase p = phaseOf(r, strides[i], kernel[i], padBegin[i],
                        yType.getDimSize(i + 2));
      phases[i].push_back(p);
      if (p.outputs > 0 && p.taps > 0) {
        low = std::max(low, -p.first);
        high = std::max(high, p.first + p.outputs + p.taps - 1 - in);
      }
    }
    before.push_back(b.getIndexAttr(low));
    after.push_back(b.getIndexAttr(high));
  }
  SmallVector<int64_t> unit(s, 1);
  Value padded = padSpatial(b, loc, x, before, after, ones, unit, unit, unit,
                            scalarConstant(b, loc, element, 0));
  std::optional<SmallVector<float>> weights = graph::constantFloats(w);
  Value y = emptyTensor(b, loc, yType);
  int64_t count = 1;
  for (int64_t i = 0; i < s; ++i) {
    count *= strides[i];
  }
  for (int64_t index = 0; index < count; ++index) {
    SmallVector<Phase> phase(s);
    SmallVector<int64_t> r(s), pShape = {yType.getDimSize(0), filters};
    SmallVector<OpFoldResult> offsets(s + 2, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = sizesOf(b, loc, padded);
    bool none = false, zero = false;
    for (int64_t i = s - 1, rest = index; i >= 0; --i) {
      r[i] = rest % strides[i];
      rest /= strides[i];
      phase[i] = phases[i][r[i]];
      const Phase &p = phase[i];
      int64_t in = xType.getDimSize(i + 2);
      none |= p.outputs == 0;
      // No taps, or every position it reads outside x: the phase is zero.
      zero |=
          p.taps == 0 || p.first >= in || p.first + p.outputs + p.taps - 2 < 0;
      offsets[i + 2] =
          b.getIndexAttr(*getConstantIntValue(before[i]) + p.first);
      sizes[i + 2] = b.getIndexAttr(p.outputs + p.taps - 1);
    }
    if (none) {
      continue;
    }
    for (const Phase &p : phase) {
      pShape.push_back(p.outputs);
    }
    auto pType = RankedTensorType::get(pShape, element);
    Value out;
    if (zero) {
      out = filledTensor(b, loc, pType, scalarConstant(b, loc, element, 0));
    } else {
      SmallVector<OpFoldResult> steps(s + 2, b.getIndexAttr(1));
      Value window =
          tensor::ExtractSliceOp::create(b, loc, padded, offsets, sizes, steps);
      Value f = phaseFilters(b, loc, w, group, phase, strides, weights);
      SmallVector<int64_t> noPads(2 * s, 0);
      ConvGeometry geometry{SmallVector<int64_t>(s, 1),
                            SmallVector<int64_t>(s, 1), ArrayRef(noPads),
                            "NOTSET", group};
      out = convolve(b, loc, window, f, pType, geometry,
                     scalarConstant(b, loc, element, 0));
      out = castTo(b, loc, out, pType);
    }
    if (bias) {
      SmallVector<int64_t> bShape = {filters};
      bShape.append(s, 1);
      Value column =
          reshapeTo(b, loc, bias, RankedTensorType::get(bShape, element));
      out = buildElementwise(b, loc, pType, {out, column},
                             [](OpBuilder &nb, Location l, ValueRange args) {
                               return add(nb, l, args[0], args[1]);
                             });
    }
    SmallVector<int64_t> at = {0, 0}, steps = {1, 1};
    for (int64_t i = 0; i < s; ++i) {
      at.push_back(r[i]);
      steps.push_back(strides[i]);
    }
    y = tensor::InsertSliceOp::create(b, loc, out, y, ValueRange{},
                                      ValueRange{}, ValueRange{}, at, pShape,
                                      steps);
  }
  return y;
}

/// y[n, m, o...] = B[m] + sum over the channels c of m's group and the
/// kernel positions k of x[n, c, i...] * W[c, m', k...], where
/// o + pad_begin - k * dilation = i * stride.
Value gatheredConvTranspose(OpBuilder &b, Location loc, Value x, Value w,
                            Value bias, ArrayRef<OpFoldResult> ySizes,
                            int64_t group, ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> dilations,
                            ArrayRef<int64_t> padBegin) {
  SizeMath m(b, loc);
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type t = xType.getElementType();
  int64_t s = xType.getRank() - 2;
  int64_t cPerGroup = xType.getDimSize(1) / group;
  int64_t mPerGroup = wType.getDimSize(1);
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  int64_t kernelCount = 1;
  for (int64_t k : kernel) {
    kernelCount *= k;
  }
  SmallVector<Value> in;
  for (int64_t d = 0; d < s; ++d) {
    in.push_back(m.value(dimSize(b, loc, x, d + 2)));
  }
  auto body = [&](OpBuilder &ib, Location l, ArrayRef<Value> o) -> Value {
    Value mo = o[1];
    Value g =
        arith::DivUIOp::create(ib, l, mo, indexConstant(ib, l, mPerGroup));
    Value mLocal =
        arith::RemUIOp::create(ib, l, mo, indexConstant(ib, l, mPerGroup));
    Value init =
        bias
            ? tensor::ExtractOp::create(ib, l, bias, ValueRange{mo}).getResult()
            : scalarConstant(ib, l, t, 0);
    Value cBase =
        arith::MulIOp::create(ib, l, g, indexConstant(ib, l, cPerGroup));
    // Over the channels c of the group and the kernel taps, flattened.
    ValueRange sum = forLoop(
        b, l, indexConstant(ib, l, 0),
        indexConstant(ib, l, cPerGroup * kernelCount), ValueRange{init},
        [&](OpBuilder &kb, Location kl, Value flat, ValueRange acc) {
          Value cLocal = arith::DivUIOp::create(
              kb, kl, flat, indexConstant(kb, kl, kernelCount));
          Value c = arith::AddIOp::create(kb, kl, cBase, cLocal);
          SmallVector<Value> k =
              delinearize(kb, kl,
                          arith::RemUIOp::create(
                              kb, kl, flat, indexConstant(kb, kl, kernelCount)),
                          kernel);
          Value valid = arith::ConstantIntOp::create(kb, kl, 1, 1);
          SmallVector<Value> xAt = {o[0], c}, wAt = {c, mLocal};
          for (int64_t d = 0; d < s; ++d) {
            // i * stride = o + pad_begin - k * dilation
            Value num = arith::SubIOp::create(
                kb, kl,
                arith::AddIOp::create(kb, kl, o[d + 2],
                                      indexConstant(kb, kl, padBegin[d])),
                arith::MulIOp::create(kb, kl, k[d],
                                      indexConstant(kb, kl, dilations[d])));
            Value nonNeg =
                arith::CmpIOp::create(kb, kl, arith::CmpIPredicate::sge, num,
                                      indexConstant(kb, kl, 0));
            Value rem = arith::RemSIOp::create(
                kb, kl, num, indexConstant(kb, kl, strides[d]));
            Value exact =
                arith::CmpIOp::create(kb, kl, arith::CmpIPredicate::eq, rem,
                                      indexConstant(kb, kl, 0));
            Value i = arith::DivSIOp::create(kb, kl, num,
                                             indexConstant(kb, kl, strides[d]));
            Value inRange = arith::CmpIOp::create(
                kb, kl, arith::CmpIPredicate::slt, i, in[d]);
            valid = arith::AndIOp::create(
                kb, kl, valid,
                arith::AndIOp::create(
                    kb, kl, nonNeg,
                    arith::AndIOp::create(kb, kl, exact, inRange)));
            xAt.push_back(clampIndex(kb, kl, i, in[d]));
            wAt.push_back(k[d]);
          }
          Value xv = tensor::ExtractOp::create(kb, kl, x, xAt);
          Value wv = tensor::ExtractOp::create(kb, kl, w, wAt);
          Value next = add(kb, kl, acc[0], mul(kb, kl, xv, wv));
          return SmallVector<Value>{
              arith::SelectOp::create(kb, kl, valid, next, acc[0])};
        });
    return sum[0];
  };
  return buildIndexed(b, loc, typeOfSizes(ySizes, t), body, ySizes);
}

struct ConvTransposeLowering final : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, /*allowDynamic=*/true))) {
      return failure();
    }
    if (!staticChannels(op, adaptor.getX(), adaptor.getW(),
                        op.getY().getType())) {
      return rewriter.notifyMatchFailure(
          op, "dynamic channel counts or weight shapes");
    }
    Location loc = op.getLoc();
    SizeMath m(rewriter, loc);
    Value w = adaptor.getW();
    Value x = withChannels(rewriter, op, adaptor.getX(),
                           cast<RankedTensorType>(w.getType()).getDimSize(0));
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    auto yType = loweredAnyShapeType(op.getY().getType());
    int64_t s = xType.getRank() - 2;
    int64_t group = op.getGroup();
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    SmallVector<int64_t> strides = orOnes(op.getStrides(), s);
    SmallVector<int64_t> dilations = orOnes(op.getDilations(), s);
    SmallVector<int64_t> outPad =
        op.getOutputPadding() ? SmallVector<int64_t>(*op.getOutputPadding())
                              : SmallVector<int64_t>(s, 0);
    StringRef autoPad = op.getAutoPad();
    bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    // Per spatial dim: the padding before, and the output size as
    // in * stride + excess (excess is static whenever the input size is
    // not: output_shape needs a static input size).
    SmallVector<int64_t> padBegin(s, 0), excess(s, 0);
    SmallVector<OpFoldResult> ySizes = {dimSize(rewriter, loc, x, 0),
                                        m.constant(yType.getDimSize(1))};
    for (int64_t i = 0; i < s; ++i) {
      int64_t effective = (kernel[i] - 1) * dilations[i] + 1;
      int64_t natural = outPad[i] + effective - strides[i];
      bool dynamicIn = xType.isDynamicDim(i + 2);
      if (op.getOutputShape() || same) {
        if (dynamicIn && !same) {
          return rewriter.notifyMatchFailure(
              op, "output_shape with a dynamic input size");
        }
        // SAME's output is in * stride whatever the input size.
        int64_t total = dynamicIn || yType.isDynamicDim(i + 2)
                            ? natural
                            : strides[i] * xType.getDimSize(i + 2) + natural -
                                  yType.getDimSize(i + 2);
        excess[i] = natural - total;
        // Halves rounded down (as ONNX's reference does), which matters
        // when output_shape is below the natural size and total < 0.
        int64_t half = llvm::divideFloorSigned(total, 2);
        padBegin[i] = autoPad == "SAME_UPPER" ? half : total - half;
      } else {
        int64_t padEnd = 0;
        if (autoPad == "NOTSET" && op.getPads()) {
          padBegin[i] = (*op.getPads())[i];
          padEnd = (*op.getPads())[i + s];
        }
        excess[i] = natural - padBegin[i] - padEnd;
      }
      if (!yType.isDynamicDim(i + 2)) {
        // The result type's size wins (as the per-element form reads it);
        // the taps tile it only when it is in * stride.
        int64_t out = yType.getDimSize(i + 2);
        ySizes.push_back(m.constant(out));
        excess[i] = dynamicIn ? 1 : out - strides[i] * xType.getDimSize(i + 2);
        continue;
      }
      ySizes.push_back(
          m.add(m.mul(dimSize(rewriter, loc, x, i + 2), strides[i]),
                m.constant(excess[i])));
    }
    Value bias = isNone(op.getB()) ? Value() : adaptor.getB();
    bool tiles = group == 1;
    for (int64_t i = 0; i < s; ++i) {
      tiles &= kernel[i] == strides[i] && dilations[i] == 1 &&
               padBegin[i] == 0 && excess[i] == 0;
    }
    // Static sizes and no dilation: stride-phase convolutions.
    bool phased = !tiles && xType.hasStaticShape() && yType.hasStaticShape();
    for (int64_t i = 0; i < s; ++i) {
      phased &= dilations[i] == 1;
    }
    Value y;
    if (tiles) {
      y = tiledConvTranspose(rewriter, loc, x, w, bias);
    } else if (phased) {
      y = phasedConvTranspose(rewriter, loc, x, w, bias, yType, group, strides,
                              padBegin);
    } else {
      y = gatheredConvTranspose(rewriter, loc, x, w, bias, ySizes, group,
                                strides, dilations, padBegin);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, y, yType));
    return success();
  }
};

} // namespace

void populateConvTransposeLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ConvTransposeLowering>(converter, patterns.getContext());
}

} // namespace infer::lowering
