//===- RuntimeBroadcast.cpp - broadcasting decided at run time ------------===//

#include "passes/lowering/RuntimeBroadcast.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "passes/lowering/IndexMath.h"
#include "passes/lowering/RuntimeChecks.h"
#include "passes/lowering/TensorBuilders.h"

using namespace mlir;

namespace infer::lowering {
namespace {

Value eq(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}

Value andOf(OpBuilder &b, Location loc, Value all, Value next) {
  return all ? arith::AndIOp::create(b, loc, all, next).getResult() : next;
}

/// `input` read at every coordinate of `sizes` with each dim in
/// `broadcast` clamped to the input's size (a size of 1 repeats its one
/// element); an input with an empty dim reads zeros.
Value broadcastCopy(OpBuilder &b, Location loc, Value input,
                    ArrayRef<OpFoldResult> sizes, ArrayRef<bool> broadcast) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<Value> have;
  Value empty;
  for (int64_t p = 0; p < type.getRank(); ++p) {
    have.push_back(broadcast[p] ? tensor::DimOp::create(b, loc, input, p)
                                : Value());
    if (broadcast[p]) {
      Value zero = eq(b, loc, have[p], indexConstant(b, loc, 0));
      empty =
          empty ? arith::OrIOp::create(b, loc, empty, zero).getResult() : zero;
    }
  }
  Type element = type.getElementType();
  return buildIndexed(
      b, loc, type,
      [&](OpBuilder &nb, Location l, ArrayRef<Value> at) {
        SmallVector<Value> in(at);
        for (int64_t p = 0; p < type.getRank(); ++p) {
          if (broadcast[p]) {
            in[p] = clampIndex(nb, l, at[p], have[p]);
          }
        }
        return extractOrZero(nb, l, empty, input, in, element);
      },
      sizes);
}

} // namespace

RuntimeBroadcast broadcastAtRunTime(OpBuilder &b, Location loc,
                                    RankedTensorType resultType,
                                    ValueRange inputs, Operation *checked) {
  int64_t rank = resultType.getRank();
  auto position = [&](Value input, int64_t d) {
    return d - (rank - cast<RankedTensorType>(input.getType()).getRank());
  };
  // Per result dim, the inputs that may set its size (those not of a
  // static size 1 there): with two or more, a dynamic one may broadcast.
  SmallVector<SmallVector<Value>> setters(rank);
  for (int64_t d = 0; d < rank; ++d) {
    for (Value input : inputs) {
      int64_t p = position(input, d);
      if (p >= 0 &&
          cast<RankedTensorType>(input.getType()).getDimSize(p) != 1) {
        setters[d].push_back(input);
      }
    }
  }
  RuntimeBroadcast result;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      result.sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    // The first non-1 size wins: s = s == 1 ? next : s.
    OpFoldResult size;
    for (Value input : setters[d]) {
      OpFoldResult next = dimSize(b, loc, input, position(input, d));
      if (!size) {
        size = next;
        continue;
      }
      if (getConstantIntValue(size).value_or(1) != 1) {
        break;
      }
      Value s = getValueOrCreateConstantIndexOp(b, loc, size);
      size = arith::SelectOp::create(
                 b, loc, eq(b, loc, s, indexConstant(b, loc, 1)),
                 getValueOrCreateConstantIndexOp(b, loc, next), s)
                 .getResult();
    }
    assert(size && "a dynamic result dim with no input to size it");
    result.sizes.push_back(size);
  }
  bool checks = checked && checksEnabled(checked);
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<bool> broadcast(type.getRank(), false);
    SmallVector<OpFoldResult> copySizes;
    Value same;
    for (int64_t p = 0; p < type.getRank(); ++p) {
      int64_t d = p + rank - type.getRank();
      bool mayBroadcast =
          d >= 0 && type.isDynamicDim(p) && setters[d].size() >= 2;
      broadcast[p] = mayBroadcast;
      if (!mayBroadcast) {
        copySizes.push_back(dimSize(b, loc, input, p));
        continue;
      }
      copySizes.push_back(result.sizes[d]);
      Value want = getValueOrCreateConstantIndexOp(b, loc, result.sizes[d]);
      same = andOf(b, loc, same,
                   eq(b, loc, tensor::DimOp::create(b, loc, input, p), want));
    }
    result.versioned.push_back(broadcast);
    if (!same) {
      result.inputs.push_back(input);
      continue;
    }
    auto version = scf::IfOp::create(
        b, loc, same,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, input);
        },
        [&](OpBuilder &eb, Location el) {
          if (checks) {
            for (int64_t p = 0; p < type.getRank(); ++p) {
              if (!broadcast[p]) {
                continue;
              }
              Value have = tensor::DimOp::create(eb, el, input, p);
              Value want =
                  getValueOrCreateConstantIndexOp(eb, el, copySizes[p]);
              Value ok = arith::OrIOp::create(
                  eb, el, eq(eb, el, have, want),
                  eq(eb, el, have, indexConstant(eb, el, 1)));
              assertAtRunTime(eb, checked, ok,
                              "dimension " + std::to_string(p) +
                                  " of operand " + std::to_string(i) +
                                  " neither matches nor broadcasts to the "
                                  "other operands' (at run time)");
            }
          }
          scf::YieldOp::create(
              eb, el, broadcastCopy(eb, el, input, copySizes, broadcast));
        });
    result.inputs.push_back(version.getResult(0));
  }
  return result;
}

} // namespace infer::lowering
