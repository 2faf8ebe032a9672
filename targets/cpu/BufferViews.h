//===- BufferViews.h - views of buffers the CPU kernels share --*- C++ -*-===//

#ifndef INFER_TARGETS_CPU_BUFFERVIEWS_H
#define INFER_TARGETS_CPU_BUFFERVIEWS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include <limits>
#include <optional>

namespace infer::cpu {

/// The buffer `value` is a reshaped view of (through memref.reshape,
/// expand_shape and collapse_shape): its allocation's replacement.
mlir::Value viewRoot(mlir::Value value);

/// A view of a buffer (reshape, expand/collapse_shape, subview, view,
/// get_global) or a constant: an op that writes no buffer's elements.
bool isViewOrConstant(mlir::Operation *op);

/// Where a buffer's bytes live: a base value and a byte range in it
/// (everything of the base when not known).
struct Storage {
  mlir::Value base;
  int64_t begin = 0, end = std::numeric_limits<int64_t>::max();
  bool overlaps(const Storage &other) const {
    return base == other.base && begin < other.end && other.begin < end;
  }
  bool operator==(const Storage &other) const {
    return base == other.base && begin == other.begin && end == other.end;
  }
};

/// The storage of `value`: through views to a memref.view of static shape
/// at a constant byte shift (a workspace buffer), else all of its base.
Storage storageOf(mlir::Value value);

/// A 1-D view of `memref`'s elements, from its offset to its last element
/// (element i of the view is at linear offset i); null when its shape or
/// strides are not static.
mlir::Value flatView(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value memref);

/// A static unit-stride subview of the same rank as its source: its
/// offsets and sizes per dim.
struct Box {
  llvm::ArrayRef<int64_t> offsets, sizes;
  /// Whether the two boxes share no element.
  bool disjoint(const Box &other) const;
};
std::optional<Box> staticBox(mlir::memref::SubViewOp view);

/// The lane after a run of lanes that starts at lane `first` of a vector
/// whose lane `first` is column `column` of rows of `rowLength` columns:
/// the lane where that column's row ends, or `limit` if sooner.
mlir::Value runEnd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value first,
                   mlir::Value column, int64_t rowLength, int64_t limit);

/// Whether `value` is a memref of static shape and identity layout (its
/// elements in row-major order from its base).
bool identityStatic(mlir::Value value);

/// The linalg.fill of the whole buffer `op` accumulates onto (its init),
/// or of the same view of it, when nothing between the two touches that
/// buffer: a kernel can start from the fill value and the fill can go.
mlir::linalg::FillOp initializingFill(mlir::linalg::LinalgOp op);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_BUFFERVIEWS_H
