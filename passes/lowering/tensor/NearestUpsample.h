//===- NearestUpsample.h - nearest Resize by whole factors -----*- C++ -*-===//
//
// A nearest-mode Resize whose every resized axis grows by a whole factor
// s, with a coordinate transformation that sends output index x to input
// index x div s, is a broadcast copy: each input element fills an s x s
// block. Lowered as one, it has no per-element coordinate arithmetic and
// no gather, and LLVM vectorizes it (ResizeLowering's general form
// computes a float coordinate per element and reads through
// tensor.extract).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSOR_NEARESTUPSAMPLE_H
#define INFER_PASSES_LOWERING_TENSOR_NEARESTUPSAMPLE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace infer::lowering {

/// The source coordinate ResizeLowering computes for output index `x` of
/// an axis resized to `out` elements with f32 `scale`, with the same f32
/// operations, or nullopt for a transformation it does not evaluate here
/// (align_corners, half_pixel_symmetric, tf_crop_and_resize).
std::optional<float> sourceCoordinate(llvm::StringRef ctm, int64_t x,
                                      int64_t out, float scale);

/// The input index that ResizeLowering's nearest mode reads for output
/// index `x` of an axis of `in` elements resized to `out` with f32 `scale`,
/// computed with the same f32 operations, or nullopt for a transformation
/// it does not evaluate (align_corners, half_pixel_symmetric,
/// tf_crop_and_resize).
std::optional<int64_t> nearestSourceIndex(llvm::StringRef ctm,
                                          llvm::StringRef nearestMode,
                                          int64_t x, int64_t in, int64_t out,
                                          float scale);

/// `x` (the Resize's input) resized along `axes` to `outType` as a
/// broadcast copy, when every axis in `axes` has static lengths, grows by
/// a whole factor and maps every output index x to x div factor by
/// nearestSourceIndex with `scales` (one f32 scale per entry of `axes`);
/// else a null value and no IR.
mlir::Value lowerWholeFactorNearest(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value x,
                                    mlir::RankedTensorType outType,
                                    llvm::ArrayRef<int64_t> axes,
                                    llvm::ArrayRef<float> scales,
                                    llvm::StringRef ctm,
                                    llvm::StringRef nearestMode);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSOR_NEARESTUPSAMPLE_H
