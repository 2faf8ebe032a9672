//===- PackedLanes.cpp - tensors of i32 values packing narrow lanes -------===//

#include "passes/lowering/PackedLanes.h"

#include "dialects/graph/IR/Folding.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/LoweringUtils.h"
#include "passes/lowering/PairDot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace infer::lowering {

Value i32Constant(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<int32_t> values) {
  return arith::ConstantOp::create(b, loc, type,
                                   cast<TypedAttr>(graph::makeConstantElements(
                                       type, values, "packed_lanes")));
}

Value packLanes(OpBuilder &b, Location loc, Value x, int64_t dim, Value padding,
                int64_t lanes, LaneBits laneBits) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), size = type.getDimSize(dim);
  int64_t groups = llvm::divideCeil(size, lanes);
  if (int64_t extra = groups * lanes - size) {
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
        high(rank, b.getIndexAttr(0));
    high[dim] = b.getIndexAttr(extra);
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] += extra;
    auto padded = RankedTensorType::get(shape, type.getElementType());
    x = tensor::PadOp::create(b, loc, padded, x, low, high, padding);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = groups;
  auto packedType = RankedTensorType::get(shape, b.getI32Type());
  SmallVector<AffineMap> maps;
  for (int64_t j = 0; j < lanes; ++j) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr expr = getAffineDimExpr(d, ctx);
      exprs.push_back(d == dim ? expr * lanes + j : expr);
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value empty = emptyTensor(b, loc, packedType);
  int64_t laneWidth = 32 / lanes;
  return linalg::GenericOp::create(
             b, loc, TypeRange{packedType}, SmallVector<Value>(lanes, x),
             ValueRange{empty}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Type i32 = nb.getI32Type();
               Value word = laneBits(nb, l, args[0]);
               for (int64_t j = 1; j < lanes; ++j) {
                 Value lane = arith::ShLIOp::create(
                     nb, l, laneBits(nb, l, args[j]),
                     arith::ConstantIntOp::create(nb, l, i32, laneWidth * j));
                 word = arith::OrIOp::create(nb, l, word, lane);
               }
               linalg::YieldOp::create(nb, l, word);
             })
      .getResult(0);
}

Value packByteLanes(OpBuilder &b, Location loc, Value x, int64_t dim,
                    Value padding) {
  return packLanes(b, loc, x, dim, padding, kByteLanes,
                   [](OpBuilder &nb, Location l, Value v) -> Value {
                     return arith::ExtUIOp::create(nb, l, nb.getI32Type(), v);
                   });
}

Value packBf16Pairs(OpBuilder &b, Location loc, Value x, int64_t dim) {
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, 0.0));
  // Round to nearest even on the f32 bits (bf16Bits), a NaN to a quiet
  // NaN: integer ops every target vectorizes.
  return packLanes(
      b, loc, x, dim, zero, kPairLanes,
      [](OpBuilder &nb, Location l, Value v) -> Value {
        Type i32 = nb.getI32Type();
        auto constant = [&](int64_t c) {
          return arith::ConstantIntOp::create(nb, l, i32, c);
        };
        Value bits = arith::BitcastOp::create(nb, l, i32, v);
        Value odd = arith::AndIOp::create(
            nb, l, arith::ShRUIOp::create(nb, l, bits, constant(16)),
            constant(1));
        Value rounded = arith::AddIOp::create(
            nb, l, bits, arith::AddIOp::create(nb, l, odd, constant(0x7fff)));
        Value top = arith::ShRUIOp::create(nb, l, rounded, constant(16));
        Value nan =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, v, v);
        return arith::SelectOp::create(nb, l, nan, constant(0x7fc0), top);
      });
}

Value bf16PairsConstant(OpBuilder &b, Location loc, ArrayRef<float> values,
                        ArrayRef<int64_t> shape, int64_t dim) {
  int64_t outer = 1, inner = 1, size = shape[dim];
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    if (d < dim) {
      outer *= shape[d];
    } else if (d > dim) {
      inner *= shape[d];
    }
  }
  int64_t groups = llvm::divideCeil(size, kPairLanes);
  std::vector<int32_t> words(outer * groups * inner, 0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < size; ++c) {
      for (int64_t i = 0; i < inner; ++i) {
        uint32_t lane = bf16Bits(values[(o * size + c) * inner + i]);
        words[(o * groups + c / kPairLanes) * inner + i] |=
            int32_t(lane << (16 * (c % kPairLanes)));
      }
    }
  }
  SmallVector<int64_t> packedShape(shape);
  packedShape[dim] = groups;
  return i32Constant(b, loc, RankedTensorType::get(packedShape, b.getI32Type()),
                     words);
}

Value pairDotStep(OpBuilder &b, Location loc, Value acc, Value x, Value y) {
  return buildPairDot(b, loc, acc, x, y);
}

} // namespace infer::lowering
