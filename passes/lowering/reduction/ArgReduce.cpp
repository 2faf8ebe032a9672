//===- ArgReduce.cpp - the index of the first or last extreme -------------===//

#include "passes/lowering/reduction/ArgReduce.h"

#include "passes/lowering/TensorBuilders.h"
#include "passes/lowering/TensorTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cmath>

using namespace mlir;

namespace infer::lowering {

Value extremeValue(OpBuilder &b, Location loc, Type t, bool lowest,
                   bool isUnsigned) {
  if (isa<FloatType>(t)) {
    return scalarConstant(b, loc, t, lowest ? -INFINITY : INFINITY);
  }
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v = isUnsigned
                ? (lowest ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                : (lowest ? APInt::getSignedMinValue(w)
                          : APInt::getSignedMaxValue(w));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

Value buildArgReduce(OpBuilder &b, Location loc, Value input, int64_t axis,
                     bool isMax, bool last, bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  Type t = inType.getElementType();
  SmallVector<int64_t> kept(inType.getShape());
  kept[axis] = 1;
  auto valType = RankedTensorType::get(kept, t);
  auto idxType = RankedTensorType::get(kept, b.getI64Type());
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    outExprs.push_back(d == axis ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(d, ctx));
    iterators.push_back(d == axis ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
  }
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  // Run-time sizes (the generic variant) are the input's.
  SmallVector<OpFoldResult> sizes = sizesOf(b, loc, input);
  sizes[axis] = b.getIndexAttr(1);
  Value vals = filledTensor(b, loc, valType,
                            extremeValue(b, loc, t, isMax, isUnsigned), sizes);
  Value idxs = filledTensor(b, loc, idxType,
                            scalarConstant(b, loc, b.getI64Type(), 0), sizes);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valType, idxType}, ValueRange{input},
      ValueRange{vals, idxs},
      SmallVector<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                             outMap, outMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value x = a[0], best = a[1], bestIdx = a[2];
        Value i = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        Value better;
        if (isa<FloatType>(t)) {
          auto pred = isMax ? (last ? arith::CmpFPredicate::OGE
                                    : arith::CmpFPredicate::OGT)
                            : (last ? arith::CmpFPredicate::OLE
                                    : arith::CmpFPredicate::OLT);
          better = arith::CmpFOp::create(nb, l, pred, x, best);
        } else {
          auto pred = isMax ? (last ? (isUnsigned ? arith::CmpIPredicate::uge
                                                  : arith::CmpIPredicate::sge)
                                    : (isUnsigned ? arith::CmpIPredicate::ugt
                                                  : arith::CmpIPredicate::sgt))
                            : (last ? (isUnsigned ? arith::CmpIPredicate::ule
                                                  : arith::CmpIPredicate::sle)
                                    : (isUnsigned ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt));
          better = arith::CmpIOp::create(nb, l, pred, x, best);
        }
        // The first element always initialises the result.
        Value first =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i,
                                  scalarConstant(nb, l, nb.getI64Type(), 0));
        better = arith::OrIOp::create(nb, l, better, first);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, x, best),
                       arith::SelectOp::create(nb, l, better, i, bestIdx)});
      });
  return generic.getResult(1);
}

} // namespace infer::lowering
