//===- BatchFills.cpp - border fills made inside a batch-parallel kernel --===//
//
// infer-cpu-pad-borders leaves the fill of a padded buffer's border as
// slabs (a depthwise convolution's input: the rows above and below every
// channel's image) between the producer, which writes the interior, and
// the convolution. With threads, the producer split one way, the slabs
// another (or by one thread) and the convolution by channel, each border
// line moved between the cores' caches twice: a 5x5 depthwise input's
// fill took 5 us on one thread and 33 us split over two. A kernel whose
// parallel loop is a batch dim of B (the channels) instead fills each
// channel's slabs at the start of that channel's iteration, on the thread
// that then reads them.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace infer::cpu {

SmallVector<KernelBuilder::BatchFill>
adoptBatchFills(const Contraction &c, unsigned dim,
                SmallVector<Operation *> &adopted) {
  Value b = c.op->getOperand(c.rhs);
  Value buffer = viewRoot(b);
  if (!c.gather || !identityStatic(b) || !identityStatic(buffer) ||
      ShapedType::isDynamic(c.ranges[dim])) {
    return {};
  }
  // Iteration i of the batch loop reads elements [i * stride, (i + 1) *
  // stride) of B only: every other loop moves its offset by less than
  // the stride in all.
  int64_t stride = c.coefficients[dim], spread = 0;
  for (auto [d, range] : llvm::enumerate(c.ranges)) {
    if (d == dim) {
      continue;
    }
    if (ShapedType::isDynamic(range) || c.coefficients[d] < 0) {
      return {};
    }
    spread += c.coefficients[d] * (range - 1);
  }
  if (stride <= 0 || spread >= stride) {
    return {};
  }
  // The buffer dim of that stride and extent, with unit dims before it.
  auto type = cast<MemRefType>(buffer.getType());
  std::optional<unsigned> sliced;
  int64_t elements = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (elements == stride && type.getDimSize(d) == c.ranges[dim]) {
      sliced = d;
      break;
    }
    elements *= type.getDimSize(d);
  }
  if (!sliced || llvm::any_of(type.getShape().take_front(*sliced),
                              [](int64_t size) { return size != 1; })) {
    return {};
  }
  // The fills between the last op that touches the buffer otherwise and
  // the kernel, in order (fills of other buffers, the kernel's output's,
  // may come between).
  SmallVector<KernelBuilder::BatchFill> fills;
  Storage storage = storageOf(buffer);
  for (Operation *op = c.op->getPrevNode(); op; op = op->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    Value target = fill ? fill.getDpsInitOperand(0)->get() : Value();
    if (!fill) {
      if (isViewOrConstant(op) || isMemoryEffectFree(op)) {
        continue;
      }
      break;
    }
    if (!storageOf(target).overlaps(storage)) {
      continue;
    }
    auto slab = target.getDefiningOp<memref::SubViewOp>();
    if (!slab || slab.getSource() != buffer || !slab.hasUnitStride() ||
        ShapedType::isDynamicShape(slab.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slab.getStaticSizes()) ||
        slab.getStaticOffsets()[*sliced] != 0 ||
        slab.getStaticSizes()[*sliced] != type.getDimSize(*sliced) ||
        slab.getType().getRank() != type.getRank()) {
      break;
    }
    fills.insert(fills.begin(),
                 {buffer, llvm::to_vector(slab.getStaticOffsets()),
                  llvm::to_vector(slab.getStaticSizes()), *sliced,
                  fill.value()});
    adopted.push_back(fill);
  }
  return fills;
}

} // namespace infer::cpu
