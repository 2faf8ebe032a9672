//===- Windows.h - padding of windowed ops ----------------------*- C++ -*-===//
//
// What the windowed ops (convolutions, pooling) share: the padding their
// attributes ask for, and the padded input every window of the output
// reads in bounds.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_NN_WINDOWS_H
#define INFER_PASSES_LOWERING_NN_WINDOWS_H

#include "passes/lowering/TensorBuilders.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace infer::lowering {

/// `values`, or `n` ones when absent (strides, dilations).
llvm::SmallVector<int64_t> orOnes(std::optional<llvm::ArrayRef<int64_t>> values,
                                  int64_t n);

/// A windowed op's geometry along each spatial dim: the input size, the
/// padding before and after, and the output size. Each is a constant where
/// the shapes are static and an index value computed at run time where not.
struct WindowSizes {
  llvm::SmallVector<mlir::OpFoldResult> in, begin, end, out;
};

/// The geometry of a window over `input` (N x C x spatial) producing a
/// result of `resultType`: pads from `pads` or `autoPad`, output sizes
/// from the result type where static, else computed as ONNX does (floor,
/// or ceil with the last window starting inside the input or its leading
/// padding; never below 0).
WindowSizes windowSizes(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value input, mlir::RankedTensorType resultType,
                        llvm::ArrayRef<int64_t> kernel,
                        llvm::ArrayRef<int64_t> strides,
                        llvm::ArrayRef<int64_t> dilations,
                        std::optional<llvm::ArrayRef<int64_t>> pads,
                        llvm::StringRef autoPad, bool ceilMode);

/// Pads the spatial dims (2..) of `input` so every window of an output of
/// `out` positions is in bounds: `begin` before, and after whatever `end`
/// and the output size need.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input,
                       llvm::ArrayRef<mlir::OpFoldResult> begin,
                       llvm::ArrayRef<mlir::OpFoldResult> end,
                       llvm::ArrayRef<mlir::OpFoldResult> out,
                       llvm::ArrayRef<int64_t> kernel,
                       llvm::ArrayRef<int64_t> strides,
                       llvm::ArrayRef<int64_t> dilations, mlir::Value padValue);

/// Whether a convolution's weights and result channels are static (its
/// batch and spatial dims may be dynamic), and its input channels too, or
/// else checkable at run time (withChannels).
bool staticChannels(mlir::Operation *op, mlir::Value x, mlir::Value w,
                    mlir::Type result);

/// `x` with its channel dim (1) static at `channels`: when the types left
/// it dynamic (a reshape's -1 over dynamic dims), a run-time check that it
/// is, then a cast.
mlir::Value withChannels(mlir::OpBuilder &b, mlir::Operation *op, mlir::Value x,
                         int64_t channels);

/// A convolution's attributes (ONNX Conv's, shared by ConvInteger and
/// QLinearConv).
struct ConvGeometry {
  llvm::SmallVector<int64_t> strides, dilations;
  std::optional<llvm::ArrayRef<int64_t>> pads;
  llvm::StringRef autoPad;
  int64_t group = 1;
};

/// y = x (N x C x spatial, padded here with `padValue`) convolved with `w`
/// (F x C/group x kernel), accumulated in x's element type with
/// `multiplyAdd(acc, input, weight)` (null: add and mul). Depthwise
/// directly, others as im2col + matmul.
mlir::Value convolve(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                     mlir::Value w, mlir::RankedTensorType yType,
                     const ConvGeometry &geometry, mlir::Value padValue,
                     MultiplyAdd multiplyAdd = nullptr);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_NN_WINDOWS_H
