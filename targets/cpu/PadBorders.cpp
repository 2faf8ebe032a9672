//===- PadBorders.cpp - fill only the border of a padded buffer -----------===//
//
// A tensor.pad bufferizes to a fill of the whole padded buffer followed by
// a copy of the source into its interior: the interior is written twice.
// Here the fill shrinks to the border: per padded dim, the slab before and
// the slab after the interior (over the interior's extent in the dims
// before it and the full extent in the dims after it). For the padded
// input of a depthwise convolution at 112x112 that is 4 rows and columns
// of each channel instead of all of it.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_PADBORDERSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// The value a fill-like op writes to every element of `buffer`: a
/// linalg.fill, or a linalg.map with no inputs yielding a value defined
/// outside it.
Value fillValue(Operation *op, Value &buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    buffer = fill.getDpsInitOperand(0)->get();
    return fill.value();
  }
  auto map = dyn_cast<linalg::MapOp>(op);
  if (!map || map.getNumDpsInputs() != 0) {
    return {};
  }
  auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
  Value value = yield.getNumOperands() == 1 ? yield.getOperand(0) : Value();
  if (!value || value.getParentRegion() == &map.getMapper()) {
    return {};
  }
  buffer = map.getInit();
  return value;
}

struct PadBordersPass final : impl::PadBordersPassBase<PadBordersPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, memref::CopyOp>> found;
    getOperation().walk([&](memref::CopyOp copy) {
      auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
      if (!interior || !interior.hasUnitStride() ||
          ShapedType::isDynamicShape(interior.getStaticOffsets()) ||
          ShapedType::isDynamicShape(interior.getStaticSizes())) {
        return;
      }
      auto type = dyn_cast<MemRefType>(interior.getSource().getType());
      if (!type || !type.hasStaticShape() ||
          interior.getSourceType().getRank() != interior.getType().getRank()) {
        return;
      }
      // The fill right before (views and the subview itself in between).
      for (Operation *prev = copy->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        Value buffer;
        if (fillValue(prev, buffer)) {
          if (buffer == interior.getSource()) {
            found.push_back({prev, copy});
          }
          return;
        }
        if (!isa<memref::SubViewOp, memref::ViewOp, memref::ReshapeOp,
                 memref::ExpandShapeOp, memref::CollapseShapeOp>(prev) &&
            !prev->hasTrait<OpTrait::ConstantLike>()) {
          return;
        }
      }
    });
    for (auto [fill, copy] : found) {
      auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
      Value buffer = interior.getSource();
      Value unused;
      Value value = fillValue(fill, unused);
      ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
      ArrayRef<int64_t> offsets = interior.getStaticOffsets();
      ArrayRef<int64_t> sizes = interior.getStaticSizes();
      OpBuilder b(fill);
      Location loc = fill->getLoc();
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t before = offsets[d], after = shape[d] - offsets[d] - sizes[d];
        for (auto [start, length] : {std::pair{int64_t(0), before},
                                     std::pair{offsets[d] + sizes[d], after}}) {
          if (length <= 0) {
            continue;
          }
          SmallVector<int64_t> at(shape.size(), 0), extent(shape);
          for (size_t e = 0; e < d; ++e) {
            at[e] = offsets[e];
            extent[e] = sizes[e];
          }
          at[d] = start;
          extent[d] = length;
          SmallVector<int64_t> ones(shape.size(), 1);
          Value slab =
              memref::SubViewOp::create(b, loc, buffer, at, extent, ones);
          linalg::FillOp::create(b, loc, value, slab);
        }
      }
      fill->erase();
    }
  }
};

} // namespace
} // namespace infer::cpu
