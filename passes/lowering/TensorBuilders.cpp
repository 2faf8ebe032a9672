//===- TensorBuilders.cpp - building tensors and linalg ops ---------------===//

#include "passes/lowering/TensorBuilders.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "passes/lowering/IndexMath.h"
#include "passes/lowering/RuntimeBroadcast.h"
#include "passes/lowering/RuntimeChecks.h"
#include "passes/lowering/TensorTypes.h"
#include <cmath>

#include <limits>

using namespace mlir;

namespace infer::lowering {

OpFoldResult dimSize(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(d)) {
    return b.getIndexAttr(type.getDimSize(d));
  }
  return tensor::DimOp::create(b, loc, tensor, d).getResult();
}

SmallVector<OpFoldResult> broadcastSizes(OpBuilder &b, Location loc,
                                         RankedTensorType type,
                                         ValueRange inputs) {
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult size = b.getIndexAttr(type.getDimSize(d));
    if (type.isDynamicDim(d)) {
      size = OpFoldResult();
      for (Value input : inputs) {
        auto inType = dyn_cast<RankedTensorType>(input.getType());
        int64_t p = inType ? d - (rank - inType.getRank()) : -1;
        if (p >= 0 && inType.isDynamicDim(p)) {
          size = dimSize(b, loc, input, p);
          break;
        }
      }
      assert(size && "a dynamic result dim with no dynamic input dim");
    }
    sizes.push_back(size);
  }
  return sizes;
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type) {
  assert(type.hasStaticShape() && "a dynamic tensor needs its sizes");
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes) {
  if (type.hasStaticShape()) {
    return emptyTensor(b, loc, type);
  }
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d)) {
      dynamic.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
    }
  }
  return tensor::EmptyOp::create(b, loc, type, dynamic);
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange like) {
  if (type.hasStaticShape()) {
    return emptyTensor(b, loc, type);
  }
  return emptyTensor(b, loc, type, broadcastSizes(b, loc, type, like));
}

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  }
  // An integer from a value no integer holds (an attribute of inf or NaN
  // on an integer op) saturates instead of being undefined.
  int64_t integer = 0;
  if (value >= 9.2233720368547748e18) {
    integer = std::numeric_limits<int64_t>::max();
  } else if (value <= -9.2233720368547758e18) {
    integer = std::numeric_limits<int64_t>::min();
  } else if (value == value) {
    integer = static_cast<int64_t>(value);
  }
  if (type.isIndex()) {
    return arith::ConstantIndexOp::create(b, loc, integer);
  }
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, integer));
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, ValueRange like) {
  return linalg::FillOp::create(b, loc, value, emptyTensor(b, loc, type, like))
      .getResult(0);
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, ArrayRef<OpFoldResult> sizes) {
  return linalg::FillOp::create(b, loc, value, emptyTensor(b, loc, type, sizes))
      .getResult(0);
}

AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType inputType,
                       ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t inRank = inputType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < inRank; ++i) {
    int64_t resultDim = rank - inRank + i;
    // An input of higher rank than the result (a one-element `min` of
    // shape [1] clipping a scalar) has only size-1 leading dims: the op
    // verifiers allow nothing else.
    if (resultDim < 0 ||
        (inputType.getDimSize(i) == 1 && resultShape[resultDim] != 1)) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
    } else {
      exprs.push_back(getAffineDimExpr(resultDim, ctx));
    }
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

bool hasBroadcastSizes(RankedTensorType type, ValueRange inputs) {
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d)) {
      continue;
    }
    bool found = llvm::any_of(inputs, [&](Value input) {
      auto inType = dyn_cast<RankedTensorType>(input.getType());
      int64_t p = inType ? d - (rank - inType.getRank()) : -1;
      return p >= 0 && inType.isDynamicDim(p);
    });
    if (!found) {
      return false;
    }
  }
  return true;
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, ScalarBody body,
                       Operation *checked) {
  MLIRContext *ctx = b.getContext();
  // Dynamic dims that two operands share may broadcast at run time: those
  // operands are versioned (RuntimeBroadcast.h) and read at the result's
  // sizes.
  RuntimeBroadcast broadcast =
      broadcastAtRunTime(b, loc, resultType, operands, checked);
  ValueRange inputs = broadcast.inputs;
  ArrayRef<OpFoldResult> sizes = broadcast.sizes;
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    maps.push_back(broadcastMap(ctx, cast<RankedTensorType>(input.getType()),
                                resultType.getShape()));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  // A dynamic dim that alone sizes a static result dim must have that size:
  // with checks, a run where it differs is refused instead of read out of
  // bounds.
  if (checked && checksEnabled(checked)) {
    int64_t rank = resultType.getRank();
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto inType = cast<RankedTensorType>(input.getType());
      for (int64_t p = 0; p < inType.getRank(); ++p) {
        int64_t d = p + rank - inType.getRank();
        if (d < 0 || !inType.isDynamicDim(p) || resultType.isDynamicDim(d) ||
            broadcast.versioned[i][p] ||
            isa<AffineConstantExpr>(maps[i].getResult(p))) {
          continue;
        }
        Value have = tensor::DimOp::create(b, loc, input, p);
        Value want = getValueOrCreateConstantIndexOp(b, loc, sizes[d]);
        Value same =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, have, want);
        assertAtRunTime(b, checked, same,
                        "dimension " + std::to_string(p) + " of operand " +
                            std::to_string(i) +
                            " does not match the other operands' (at run "
                            "time)");
      }
    }
  }
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs,
      ValueRange{emptyTensor(b, loc, resultType, sizes)}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value castScalar(OpBuilder &b, Location loc, Value v, Type to,
                 bool fromUnsigned, bool toUnsigned) {
  Type from = v.getType();
  if (from == to) {
    return v;
  }
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromInt && toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = scalarConstant(b, loc, from, 0);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
    }
    if (fromInt.getWidth() < toInt.getWidth()) {
      return fromUnsigned || fromInt.getWidth() == 1
                 ? arith::ExtUIOp::create(b, loc, to, v).getResult()
                 : arith::ExtSIOp::create(b, loc, to, v).getResult();
    }
    return arith::TruncIOp::create(b, loc, to, v);
  }
  if (fromInt && isa<FloatType>(to)) {
    return fromUnsigned || fromInt.getWidth() == 1
               ? arith::UIToFPOp::create(b, loc, to, v).getResult()
               : arith::SIToFPOp::create(b, loc, to, v).getResult();
  }
  if (isa<FloatType>(from) && toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = scalarConstant(b, loc, from, 0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    }
    return toUnsigned ? arith::FPToUIOp::create(b, loc, to, v).getResult()
                      : arith::FPToSIOp::create(b, loc, to, v).getResult();
  }
  auto fromFloat = cast<FloatType>(from);
  auto toFloat = cast<FloatType>(to);
  if (fromFloat.getWidth() < toFloat.getWidth()) {
    return arith::ExtFOp::create(b, loc, to, v);
  }
  if (fromFloat.getWidth() > toFloat.getWidth()) {
    return arith::TruncFOp::create(b, loc, to, v);
  }
  // Same width, different format (f16 <-> bf16): through f32.
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, to, wide);
}

std::optional<SmallVector<int64_t>> reshapeDimSources(RankedTensorType from,
                                                      RankedTensorType to) {
  auto nonUnit = [](RankedTensorType t) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (t.getDimSize(d) != 1) {
        dims.push_back(d);
      }
    }
    return dims;
  };
  SmallVector<int64_t> in = nonUnit(from), out = nonUnit(to);
  if (in.size() != out.size()) {
    return std::nullopt;
  }
  SmallVector<int64_t> sources(to.getRank(), -1);
  for (auto [i, o] : llvm::zip(in, out)) {
    int64_t a = from.getDimSize(i), c = to.getDimSize(o);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(c) && a != c) {
      return std::nullopt;
    }
    sources[o] = i;
  }
  return sources;
}

Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType type) {
  if (value.getType() == type) {
    return value;
  }
  auto shapeType = RankedTensorType::get({type.getRank()}, b.getI64Type());
  if (type.hasStaticShape()) {
    Value shape = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(shapeType, type.getShape()));
    return tensor::ReshapeOp::create(b, loc, type, value, shape);
  }
  auto from = cast<RankedTensorType>(value.getType());
  if (type.getNumDynamicDims() > 1) {
    // Several dynamic dims: each is one of the input's (unit dims inserted
    // or removed, as Squeeze and Unsqueeze do).
    auto sources = reshapeDimSources(from, type);
    assert(sources && "reshape to several dynamic dims");
    SmallVector<Value> dims;
    for (auto [d, size] : llvm::enumerate(type.getShape())) {
      Value dim =
          ShapedType::isDynamic(size)
              ? getValueOrCreateConstantIndexOp(
                    b, loc, dimSize(b, loc, value, (*sources)[d]))
              : arith::ConstantIndexOp::create(b, loc, size).getResult();
      dims.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), dim));
    }
    Value shape = tensor::FromElementsOp::create(b, loc, shapeType, dims);
    return tensor::ReshapeOp::create(b, loc, type, value, shape);
  }
  // One dynamic dim: the element count over the static dims' product.
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < from.getRank(); ++d) {
    count = arith::MulIOp::create(
        b, loc, count,
        getValueOrCreateConstantIndexOp(b, loc, dimSize(b, loc, value, d)));
  }
  int64_t known = 1;
  for (int64_t size : type.getShape()) {
    known *= ShapedType::isDynamic(size) ? 1 : size;
  }
  Value dynamic = arith::DivUIOp::create(
      b, loc, count, arith::ConstantIndexOp::create(b, loc, known));
  SmallVector<Value> dims;
  for (int64_t size : type.getShape()) {
    dims.push_back(
        ShapedType::isDynamic(size)
            ? arith::IndexCastOp::create(b, loc, b.getI64Type(), dynamic)
                  .getResult()
            : arith::ConstantIntOp::create(b, loc, size, 64).getResult());
  }
  Value shape = tensor::FromElementsOp::create(b, loc, shapeType, dims);
  return tensor::ReshapeOp::create(b, loc, type, value, shape);
}

SmallVector<OpFoldResult> batchSizes(OpBuilder &b, Location loc,
                                     RankedTensorType type, Value source) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    sizes.push_back(d == 0 && type.isDynamicDim(0)
                        ? dimSize(b, loc, source, 0)
                        : b.getIndexAttr(type.getDimSize(d)));
  }
  return sizes;
}

Value buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                   bool log) {
  auto type = cast<RankedTensorType>(x.getType());
  Type t = type.getElementType();
  // The row max ignores NaNs (maxnumf, whose reductions LLVM vectorizes):
  // a NaN in the row still makes every output of the row NaN, through
  // x - max and the sum, as maximumf's NaN max would.
  Value max = buildReduction(
      b, loc, x, {axis}, true, scalarConstant(b, loc, t, -INFINITY),
      [](OpBuilder &nb, Location l, Value acc, Value v) {
        return arith::MaxNumFOp::create(nb, l, acc, v).getResult();
      });
  if (!log && t.getIntOrFloatBitWidth() >= 32) {
    // exp(x - max) once per element (the polynomial costs far more than a
    // pass over the rows), then its row sum, then times the row's
    // reciprocal (made once per row where the axis is innermost: a vector
    // division per element cost more than the exp). Not for 16-bit floats:
    // exp(x - max) kept in them is rounded once more before the scaling
    // (the bf16 attention node tests lose elements to it).
    Value e = buildElementwise(
        b, loc, type, {x, max}, [](OpBuilder &nb, Location l, ValueRange a) {
          return math::ExpOp::create(nb, l,
                                     arith::SubFOp::create(nb, l, a[0], a[1]))
              .getResult();
        });
    Value sum = buildReduction(
        b, loc, e, {axis}, true, scalarConstant(b, loc, t, 0),
        [](OpBuilder &nb, Location l, Value acc, Value v) {
          return arith::AddFOp::create(nb, l, acc, v).getResult();
        });
    return buildElementwise(
        b, loc, type, {e, sum}, [](OpBuilder &nb, Location l, ValueRange a) {
          Value reciprocal = arith::DivFOp::create(
              nb, l, scalarConstant(nb, l, a[1].getType(), 1), a[1]);
          return arith::MulFOp::create(nb, l, a[0], reciprocal).getResult();
        });
  }
  // LogSoftmax, and 16-bit softmax: the sum of exp(x - max) reads x and
  // the max (x - max is not kept: a pass over memory), and so does the
  // result.
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> rowExprs;
  for (int64_t d = 0; d < rank; ++d) {
    rowExprs.push_back(d == axis ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(d, ctx));
  }
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap row = AffineMap::get(rank, 0, rowExprs, ctx);
  auto rowType = cast<RankedTensorType>(max.getType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  Value zeros = filledTensor(b, loc, rowType, scalarConstant(b, loc, t, 0),
                             ValueRange{max});
  Value sum =
      linalg::GenericOp::create(
          b, loc, TypeRange{rowType}, ValueRange{x, max}, ValueRange{zeros},
          SmallVector<AffineMap>{all, row, row}, iterators,
          [](OpBuilder &nb, Location l, ValueRange a) {
            Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(
                    nb, l, a[2], math::ExpOp::create(nb, l, shifted))});
          })
          .getResult(0);
  return buildElementwise(
      b, loc, type, {x, max, sum},
      [log](OpBuilder &nb, Location l, ValueRange a) {
        Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
        if (log) {
          return arith::SubFOp::create(nb, l, shifted,
                                       math::LogOp::create(nb, l, a[2]))
              .getResult();
        }
        Value reciprocal = arith::DivFOp::create(
            nb, l, scalarConstant(nb, l, a[2].getType(), 1), a[2]);
        return arith::MulFOp::create(nb, l, math::ExpOp::create(nb, l, shifted),
                                     reciprocal)
            .getResult();
      });
}

Value buildIndexed(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> body,
    ArrayRef<OpFoldResult> sizes) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx)};
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{},
      ValueRange{sizes.empty() ? emptyTensor(b, loc, resultType)
                               : emptyTensor(b, loc, resultType, sizes)},
      maps, iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < resultType.getRank(); ++d) {
          indices.push_back(linalg::IndexOp::create(nested, nestedLoc, d));
        }
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, indices));
      });
  return generic.getResult(0);
}

Value buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    bool keepDims, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  return buildReductions(b, loc, input, axes, keepDims, init, {combine})
      .front();
}

SmallVector<Value> buildReductions(OpBuilder &b, Location loc, Value input,
                                   ArrayRef<int64_t> axes, bool keepDims,
                                   Value init, ArrayRef<Combiner> combiners) {
  MLIRContext *ctx = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  auto resultType =
      RankedTensorType::get(reducedShape(inputType.getShape(), axes, keepDims),
                            inputType.getElementType());
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced) {
      outExprs.push_back(getAffineDimExpr(d, ctx));
    } else if (keepDims) {
      outExprs.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
  maps.append(combiners.size(), AffineMap::get(rank, 0, outExprs, ctx));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(axes, d)) {
      sizes.push_back(dimSize(b, loc, input, d));
    } else if (keepDims) {
      sizes.push_back(b.getIndexAttr(1));
    }
  }
  SmallVector<Value> accs;
  SmallVector<Type> types(combiners.size(), resultType);
  for (size_t i = 0; i < combiners.size(); ++i) {
    accs.push_back(filledTensor(b, loc, resultType, init, sizes));
  }
  auto generic = linalg::GenericOp::create(
      b, loc, types, ValueRange{input}, accs, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> folded;
        for (auto [i, combine] : llvm::enumerate(combiners)) {
          folded.push_back(combine(nested, nestedLoc, args[i + 1], args[0]));
        }
        linalg::YieldOp::create(nested, nestedLoc, folded);
      });
  return SmallVector<Value>(generic.getResults());
}

RankedTensorType typeOfSizes(ArrayRef<OpFoldResult> sizes, Type element) {
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes) {
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  }
  return RankedTensorType::get(shape, element);
}

Value castTo(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  if (value.getType() == type) {
    return value;
  }
  return tensor::CastOp::create(b, loc, type, value);
}

SmallVector<OpFoldResult> sizesOf(OpBuilder &b, Location loc, Value value) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < cast<RankedTensorType>(value.getType()).getRank();
       ++d) {
    sizes.push_back(dimSize(b, loc, value, d));
  }
  return sizes;
}

Value reshapeToSizes(OpBuilder &b, Location loc, Value value,
                     ArrayRef<OpFoldResult> sizes) {
  Type element = cast<RankedTensorType>(value.getType()).getElementType();
  RankedTensorType type = typeOfSizes(sizes, element);
  if (type.hasStaticShape()) {
    return reshapeTo(b, loc, value, type);
  }
  SmallVector<Value> dims;
  SizeMath m(b, loc);
  for (OpFoldResult size : sizes) {
    dims.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), m.value(size)));
  }
  Value shape = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({type.getRank()}, b.getI64Type()), dims);
  return tensor::ReshapeOp::create(b, loc, type, value, shape);
}

Value extractOrZero(OpBuilder &b, Location loc, Value empty, Value data,
                    ValueRange at, Type element) {
  auto guarded = scf::IfOp::create(
      b, loc, empty,
      [&](OpBuilder &tb, Location tl) {
        scf::YieldOp::create(tb, tl, scalarConstant(tb, tl, element, 0));
      },
      [&](OpBuilder &eb, Location el) {
        scf::YieldOp::create(
            eb, el, tensor::ExtractOp::create(eb, el, data, at).getResult());
      });
  return guarded.getResult(0);
}

} // namespace infer::lowering
