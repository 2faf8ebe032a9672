//===- Windows.cpp - padding of windowed ops ------------------------------===//
//
// What the windowed ops (convolutions, pooling) share: the padding their
// attributes ask for, and the padded input every window of the output
// reads in bounds.
//
//===----------------------------------------------------------------------===//

#include "passes/lowering/nn/Windows.h"
#include "passes/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace infer::lowering {

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t n) {
  return values ? SmallVector<int64_t>(*values) : SmallVector<int64_t>(n, 1);
}

WindowSizes windowSizes(OpBuilder &b, Location loc, Value input,
                        RankedTensorType resultType, ArrayRef<int64_t> kernel,
                        ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                        std::optional<ArrayRef<int64_t>> pads,
                        StringRef autoPad, bool ceilMode) {
  SizeMath m(b, loc);
  int64_t n = kernel.size();
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  WindowSizes w;
  for (int64_t i = 0; i < n; ++i) {
    OpFoldResult in = dimSize(b, loc, input, i + 2);
    int64_t effective = (kernel[i] - 1) * dilations[i] + 1;
    OpFoldResult begin = m.constant(0), end = m.constant(0), out;
    if (same) {
      out = m.ceilDiv(in, strides[i]);
      OpFoldResult total =
          m.max(m.sub(m.add(m.mul(m.sub(out, m.constant(1)), strides[i]),
                            m.constant(effective)),
                      in),
                m.constant(0));
      OpFoldResult small = m.floorDiv(total, 2);
      begin = autoPad == "SAME_UPPER" ? small : m.sub(total, small);
      end = autoPad == "SAME_UPPER" ? m.sub(total, small) : small;
    } else {
      if (autoPad == "NOTSET" && pads) {
        begin = m.constant((*pads)[i]);
        end = m.constant((*pads)[i + n]);
      }
      OpFoldResult span =
          m.sub(m.add(m.add(in, begin), end), m.constant(effective));
      out = m.add(ceilMode ? m.ceilDiv(span, strides[i])
                           : m.floorDiv(span, strides[i]),
                  m.constant(1));
      if (ceilMode) {
        out = m.decrementIf(out, arith::CmpIPredicate::sge,
                            m.mul(m.sub(out, m.constant(1)), strides[i]),
                            m.add(in, begin));
      }
      out = m.max(out, m.constant(0));
    }
    if (!resultType.isDynamicDim(i + 2)) {
      out = m.constant(resultType.getDimSize(i + 2));
    }
    w.in.push_back(in);
    w.begin.push_back(begin);
    w.end.push_back(end);
    w.out.push_back(out);
  }
  return w;
}

Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<OpFoldResult> begin, ArrayRef<OpFoldResult> end,
                 ArrayRef<OpFoldResult> out, ArrayRef<int64_t> kernel,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 Value padValue) {
  SizeMath m(b, loc);
  auto type = cast<RankedTensorType>(input.getType());
  int64_t n = kernel.size();
  SmallVector<OpFoldResult> low(type.getRank(), m.constant(0)),
      high(type.getRank(), m.constant(0));
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    OpFoldResult in = dimSize(b, loc, input, i + 2);
    // The last window ends at (out - 1) * stride + effective size.
    OpFoldResult needed = m.add(m.mul(m.sub(out[i], m.constant(1)), strides[i]),
                                m.constant((kernel[i] - 1) * dilations[i] + 1));
    low[i + 2] = begin[i];
    high[i + 2] = m.max(m.sub(m.sub(needed, in), begin[i]), end[i]);
    any |= getConstantIntValue(low[i + 2]) != 0 ||
           getConstantIntValue(high[i + 2]) != 0;
  }
  if (!any) {
    return input;
  }
  SmallVector<OpFoldResult> sizes = sizesOf(b, loc, input);
  for (int64_t d = 2; d < type.getRank(); ++d) {
    sizes[d] = m.add(m.add(sizes[d], low[d]), high[d]);
  }
  return tensor::PadOp::create(b, loc,
                               typeOfSizes(sizes, type.getElementType()), input,
                               low, high, padValue);
}

bool staticChannels(Operation *op, Value x, Value w, Type result) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto yType = dyn_cast<RankedTensorType>(result);
  return xType.getRank() >= 3 &&
         (!xType.isDynamicDim(1) || checksEnabled(op)) &&
         wType.hasStaticShape() && (!yType || !yType.isDynamicDim(1));
}

Value withChannels(OpBuilder &b, Operation *op, Value x, int64_t channels) {
  auto type = cast<RankedTensorType>(x.getType());
  if (!type.isDynamicDim(1)) {
    return x;
  }
  Location loc = op->getLoc();
  Value have = tensor::DimOp::create(b, loc, x, 1);
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, have,
                                     indexConstant(b, loc, channels));
  assertAtRunTime(b, op, same,
                  "the input has another channel count than the weights' (" +
                      std::to_string(channels) + ") (at run time)");
  SmallVector<int64_t> shape(type.getShape());
  shape[1] = channels;
  return tensor::CastOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x);
}

} // namespace infer::lowering
