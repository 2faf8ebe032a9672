//===- ConstantData.h - f32 constants read and made at compile time -*- C++
//-*-===//
//
// The CPU passes that rewrite weights at compile time (transposed B in
// infer-cpu-transpose-rhs, packed A in infer-cpu-pack-weights) read a
// constant's f32 elements and make a new constant of the rewritten ones.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_CONSTANTDATA_H
#define INFER_TARGETS_CPU_CONSTANTDATA_H

#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace infer::cpu {

/// The `count` f32 elements of a dense or dense-resource attribute, or
/// nullopt when it holds something else.
std::optional<std::vector<float>> elementsData(mlir::Attribute attr,
                                               int64_t count);

/// The `count` elements of a dense or dense-resource attribute of a 32-bit
/// element type (f32, i32) as their bits, or nullopt.
std::optional<std::vector<uint32_t>> elementBits(mlir::Attribute attr,
                                                 int64_t count);

/// Replaces each subnormal f32 in `bits` (magnitude under 2^-126, not
/// zero) by a zero of its sign; returns how many. For weights the kernels
/// multiply: an FMA with a subnormal operand takes a microcode assist on
/// Intel cores (PP-OCRv4 rec's squeeze-excite 480 -> 120 convolution,
/// 23% of its weights subnormal: 0.168 ms against 0.003 with them zero,
/// Emerald Rapids, 1 thread), while each such product is below 2^-126
/// times the other operand, under any tolerance a result is held to.
int64_t flushSubnormals(llvm::MutableArrayRef<uint32_t> bits);
int64_t flushSubnormals(llvm::MutableArrayRef<float> values);

/// 32-bit elements `bits` as an attribute of `type` (f32 or i32), inline
/// when small (see f32Elements).
mlir::Attribute bitsElements(mlir::RankedTensorType type,
                             llvm::ArrayRef<uint32_t> bits,
                             llvm::StringRef name);

/// `values` as an attribute of `type`: inline when small enough to read in
/// printed IR (64 elements), else a dense resource blob named `name`.
mlir::Attribute f32Elements(mlir::RankedTensorType type,
                            llvm::ArrayRef<float> values, llvm::StringRef name);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CONSTANTDATA_H
