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

/// Begin/end padding per spatial dimension from pads or auto_pad.
void windowPads(ArrayRef<int64_t> inSpatial, ArrayRef<int64_t> kernel,
                ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                std::optional<ArrayRef<int64_t>> pads, StringRef autoPad,
                SmallVectorImpl<int64_t> &begin,
                SmallVectorImpl<int64_t> &end) {
  int64_t n = inSpatial.size();
  for (int64_t i = 0; i < n; ++i) {
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t out = (inSpatial[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>((out - 1) * strides[i] +
                                            (kernel[i] - 1) * dilations[i] + 1 -
                                            inSpatial[i],
                                        0);
      int64_t small = total / 2;
      begin.push_back(autoPad == "SAME_UPPER" ? small : total - small);
      end.push_back(autoPad == "SAME_UPPER" ? total - small : small);
    } else if (autoPad == "NOTSET" && pads) {
      begin.push_back((*pads)[i]);
      end.push_back((*pads)[i + n]);
    } else {
      begin.push_back(0);
      end.push_back(0);
    }
  }
}

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t n) {
  return values ? SmallVector<int64_t>(*values) : SmallVector<int64_t>(n, 1);
}

/// Pads the spatial dims (2..) of `input` so every window of the output is
/// in bounds: `begin` before, and after whatever `end` and the output size
/// need.
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                 ArrayRef<int64_t> outSpatial, ArrayRef<int64_t> kernel,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                 Value padValue) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t n = kernel.size();
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0);
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    int64_t in = type.getDimSize(i + 2);
    int64_t needed =
        (outSpatial[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1;
    low[i + 2] = begin[i];
    high[i + 2] = std::max<int64_t>(needed - in - begin[i], end[i]);
    any |= low[i + 2] || high[i + 2];
  }
  if (!any) {
    return input;
  }
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    shape[d] += low[d] + high[d];
  }
  auto padded = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> lowOfr, highOfr;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    lowOfr.push_back(b.getIndexAttr(low[d]));
    highOfr.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, loc, padded, input, lowOfr, highOfr,
                               padValue);
}

} // namespace infer::lowering
