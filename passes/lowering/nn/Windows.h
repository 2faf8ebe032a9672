//===- Windows.h - padding of windowed ops ----------------------*- C++ -*-===//
//
// What the windowed ops (convolutions, pooling) share: the padding their
// attributes ask for, and the padded input every window of the output
// reads in bounds.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_NN_WINDOWS_H
#define INFER_PASSES_LOWERING_NN_WINDOWS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace infer::lowering {

/// Begin/end padding per spatial dimension from pads or auto_pad.
void windowPads(llvm::ArrayRef<int64_t> inSpatial,
                llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> strides,
                llvm::ArrayRef<int64_t> dilations,
                std::optional<llvm::ArrayRef<int64_t>> pads,
                llvm::StringRef autoPad, llvm::SmallVectorImpl<int64_t> &begin,
                llvm::SmallVectorImpl<int64_t> &end);

/// `values`, or `n` ones when absent (strides, dilations).
llvm::SmallVector<int64_t> orOnes(std::optional<llvm::ArrayRef<int64_t>> values,
                                  int64_t n);

/// Pads the spatial dims (2..) of `input` so every window of the output is
/// in bounds: `begin` before, and after whatever `end` and the output size
/// need.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input, llvm::ArrayRef<int64_t> begin,
                       llvm::ArrayRef<int64_t> end,
                       llvm::ArrayRef<int64_t> outSpatial,
                       llvm::ArrayRef<int64_t> kernel,
                       llvm::ArrayRef<int64_t> strides,
                       llvm::ArrayRef<int64_t> dilations, mlir::Value padValue);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_NN_WINDOWS_H
