//===- SymbolicShapes.h - dynamic dims named by where they come from ------===//
//
// A model exported with dynamic axes carries one unknown size through many
// tensors: the batch of the input is the batch of every activation after
// it. To see that two dynamic dims are equal without knowing either, each
// is traced back through the ops that pass it on unchanged (elementwise
// ops, transposes, convolutions' batch, reshapes that copy it) to the dim
// it comes from: its root. Two dims with the same root are the same size at
// run time.
//
// The shape values of an export's shape subgraph (PartialShapes.cpp) hold
// such dims as products `coefficient * root * root...`, so that a Reshape
// to [batch * 2, 64, -1] of a [batch, 2, 64, 1001] tensor resolves its -1
// to 1001, and a Resize to Concat(Shape(x)[0:2], [20, 20]) knows it keeps
// x's batch.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_SYMBOLICSHAPES_H
#define INFER_DIALECTS_GRAPH_IR_SYMBOLICSHAPES_H

#include "mlir/IR/Value.h"

#include <optional>

namespace infer::graph {

/// A dynamic dim: dimension `dim` of `value`.
struct DimRoot {
  mlir::Value value;
  int64_t dim = 0;

  bool operator==(const DimRoot &other) const {
    return value == other.value && dim == other.dim;
  }
  bool operator<(const DimRoot &other) const {
    if (value != other.value) {
      return value.getAsOpaquePointer() < other.value.getAsOpaquePointer();
    }
    return dim < other.dim;
  }
};

/// The dim that dimension `dim` of the tensor `value` is a copy of, traced
/// through the ops that pass a dim on unchanged; `{value, dim}` itself when
/// none does. Meant for dynamic dims (a static dim is its own root).
DimRoot dimRoot(mlir::Value value, int64_t dim);

/// The root of entry `entry` of the integer shape value `shape` when that
/// entry is exactly one dynamic dim (a Shape entry passed on unchanged).
std::optional<DimRoot> shapeEntryRoot(mlir::Value shape, int64_t entry);

/// Whether entry `entry` of the integer shape value `shape` is, at run
/// time, the size of dimension `dim` of `tensor` (both traced to the same
/// root, or both the same known size).
bool shapeEntryIsDim(mlir::Value shape, int64_t entry, mlir::Value tensor,
                     int64_t dim);

/// For a Reshape of `data` to the shape value `shape` whose entry `wildcard`
/// is -1: that entry's size when every unknown dim of `data` is matched by
/// one of the other entries (so the element counts cancel), else nullopt.
/// Entries 0 copy `data`'s dim unless `allowzero`.
std::optional<int64_t> reshapeWildcardSize(mlir::Value data, mlir::Value shape,
                                           int64_t wildcard, bool allowzero);

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_IR_SYMBOLICSHAPES_H
