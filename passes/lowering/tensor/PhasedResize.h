//===- PhasedResize.h - linear/cubic Resize by whole factors --*- C++ -*-===//
//
// A linear or cubic Resize that grows spatial axes by whole factors s reads,
// for output o = s * q + r, the input around q + delta_r: the fraction
// delta_r, and so the taps and their weights, depend on the phase r only.
// Each combination of phases is then a depthwise convolution with a small
// constant stencil over the input padded with its edge values (ONNX's
// clamping), written into every s-th output element. Lowered as such, the
// targets run it as their depthwise kernels; the general form computes
// float coordinates per output element and gathers 2^k or 4^k inputs.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_TENSOR_PHASEDRESIZE_H
#define INFER_PASSES_LOWERING_TENSOR_PHASEDRESIZE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace infer::lowering {

/// What a Resize asks of the phased form.
struct ResizeMode {
  llvm::StringRef mode;  // "linear" or "cubic"
  llvm::StringRef ctm;   // coordinate_transformation_mode
  double cubicA = -0.75; // cubic_coeff_a
  bool excludeOutside = false;
};

/// `x` (N x C x spatial, f32, static sizes) resized along `axes` to
/// `outType` by the f32 `scales` (one per entry of `axes`), as one
/// depthwise convolution per phase (see above), when every resized axis is
/// spatial and grows by a whole factor to exactly factor times its length,
/// with a transformation whose source coordinate is periodic in the output
/// index (half_pixel, pytorch_half_pixel, half_pixel_symmetric,
/// asymmetric) and no excluded outside taps; else a null value and no IR.
mlir::Value lowerWholeFactorInterpolation(mlir::OpBuilder &b,
                                          mlir::Location loc, mlir::Value x,
                                          mlir::RankedTensorType outType,
                                          llvm::ArrayRef<int64_t> axes,
                                          llvm::ArrayRef<float> scales,
                                          const ResizeMode &mode);

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_TENSOR_PHASEDRESIZE_H
