//===- BufferViews.cpp - views of buffers the CPU kernels share -----------===//

#include "targets/cpu/BufferViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace infer::cpu {

Value viewRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<memref::ReshapeOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
            def)) {
      break;
    }
    value = def->getOperand(0);
  }
  return value;
}

bool identityStatic(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

bool isViewOrConstant(Operation *op) {
  return isa<memref::ReshapeOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::SubViewOp, memref::ViewOp, memref::GetGlobalOp>(op) ||
         op->hasTrait<OpTrait::ConstantLike>();
}

Storage storageOf(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::ReshapeOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::SubViewOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      auto type = view.getType();
      APInt offset;
      if (type.hasStaticShape() &&
          matchPattern(view.getByteShift(), m_ConstantInt(&offset))) {
        int64_t begin = offset.getSExtValue();
        int64_t bytes =
            type.getNumElements() * type.getElementTypeBitWidth() / 8;
        return {view.getSource(), begin, begin + bytes};
      }
      return {view.getSource()};
    }
    break;
  }
  return {value};
}

Value flatView(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamicShape(strides)) {
    return {};
  }
  int64_t extent = 1;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
    extent += (size - 1) * stride;
  }
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  auto flatType = MemRefType::get(
      {extent}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
  return memref::ReinterpretCastOp::create(
      b, loc, flatType, metadata.getBaseBuffer(), metadata.getOffset(),
      ArrayRef<OpFoldResult>{b.getIndexAttr(extent)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

bool Box::disjoint(const Box &other) const {
  for (size_t d = 0; d < offsets.size(); ++d) {
    if (offsets[d] + sizes[d] <= other.offsets[d] ||
        other.offsets[d] + other.sizes[d] <= offsets[d]) {
      return true;
    }
  }
  return false;
}

std::optional<Box> staticBox(memref::SubViewOp view) {
  if (!view.hasUnitStride() ||
      ShapedType::isDynamicShape(view.getStaticOffsets()) ||
      ShapedType::isDynamicShape(view.getStaticSizes()) ||
      view.getSourceType().getRank() != view.getType().getRank()) {
    return std::nullopt;
  }
  return Box{view.getStaticOffsets(), view.getStaticSizes()};
}

Value runEnd(OpBuilder &b, Location loc, Value first, Value column,
             int64_t rowLength, int64_t limit) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value left = arith::SubIOp::create(
      b, loc, index(rowLength),
      arith::RemUIOp::create(b, loc, column, index(rowLength)));
  return arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, first, left), index(limit));
}

linalg::FillOp initializingFill(linalg::LinalgOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  Value root = viewRoot(out);
  auto outType = cast<MemRefType>(out.getType());
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      Value filled = fill.getDpsInitOperand(0)->get();
      if (viewRoot(filled) == root) {
        auto type = cast<MemRefType>(filled.getType());
        if (!type.hasStaticShape() || !outType.hasStaticShape()) {
          return linalg::FillOp(); // sizes known at run time: keep it
        }
        // The same view (a padded buffer's strided interior) or the whole
        // of a buffer in both.
        return filled == out ||
                       (type.getNumElements() == outType.getNumElements() &&
                        type.getLayout().isIdentity() &&
                        outType.getLayout().isIdentity())
                   ? fill
                   : linalg::FillOp();
      }
    }
    // A view of the buffer is harmless; any other use of it is not.
    bool isView =
        isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::ReshapeOp>(
            prev);
    for (Value operand : prev->getOperands()) {
      if (!isView && isa<MemRefType>(operand.getType()) &&
          viewRoot(operand) == root) {
        return {};
      }
    }
    if (prev->getNumRegions() != 0 && !isa<linalg::LinalgOp>(prev)) {
      return {}; // a loop or branch could touch it in ways not seen here
    }
  }
  return {};
}

} // namespace infer::cpu
