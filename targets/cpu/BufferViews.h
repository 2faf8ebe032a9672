//===- BufferViews.h - views of buffers the CPU kernels share --*- C++ -*-===//

#ifndef INFER_TARGETS_CPU_BUFFERVIEWS_H
#define INFER_TARGETS_CPU_BUFFERVIEWS_H

#include "mlir/IR/Builders.h"

namespace infer::cpu {

/// The buffer `value` is a reshaped view of (through memref.reshape,
/// expand_shape and collapse_shape): its allocation's replacement.
mlir::Value viewRoot(mlir::Value value);

/// A 1-D view of `memref`'s elements, from its offset to its last element
/// (element i of the view is at linear offset i); null when its shape or
/// strides are not static.
mlir::Value flatView(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value memref);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_BUFFERVIEWS_H
