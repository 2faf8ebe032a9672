//===- Folding.h - constant folding helpers for graph ops -------*- C++ -*-===//
//
// Folding exists to turn shape computations (Shape -> Gather -> Concat ->
// Reshape chains, small index arithmetic) into constants. It is limited to
// small tensors so the compiler never materialises copies of weights.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_FOLDING_H
#define INFER_DIALECTS_GRAPH_IR_FOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace infer::graph {

/// Tensors with more elements than this are never folded.
inline constexpr int64_t kMaxFoldElements = 1 << 16;

/// Dense elements of `attr` when it is small enough to fold, else null.
mlir::DenseElementsAttr getFoldableElements(mlir::Attribute attr);

/// The statically shaped, foldable result type, or null.
mlir::RankedTensorType getFoldableType(mlir::Type type);

/// Elementwise binary folding with numpy broadcasting; `intFn` may return
/// std::nullopt to refuse (division by zero).
mlir::OpFoldResult foldBinaryConstant(
    mlir::Attribute lhs, mlir::Attribute rhs, mlir::Type resultType,
    llvm::function_ref<std::optional<llvm::APInt>(const llvm::APInt &,
                                                  const llvm::APInt &)>
        intFn,
    llvm::function_ref<llvm::APFloat(const llvm::APFloat &,
                                     const llvm::APFloat &)>
        floatFn);

/// Element type conversion of a constant with ONNX Cast semantics.
mlir::OpFoldResult foldCastConstant(mlir::Attribute input,
                                    mlir::Type resultType);

/// Maps a flat index of `outShape` to the flat index of a tensor of
/// `inShape` broadcast to it.
int64_t broadcastSourceIndex(int64_t flat, llvm::ArrayRef<int64_t> outShape,
                             llvm::ArrayRef<int64_t> inShape);

/// The values of a small integer tensor (rank <= 1, a shape or an index)
/// as far as they are known at compile time: entries that depend on a
/// dynamic dim are kDynamic. Follows Shape, Gather, Concat, Unsqueeze,
/// Squeeze, Reshape, Cast and integer Add/Sub/Mul/Div (PartialShapes.cpp);
/// std::nullopt when the value is not of that kind.
std::optional<llvm::SmallVector<int64_t>> getPartialInts(mlir::Value value);

/// The elements of the constant `value` (dense, or a dense resource of 8-
/// or 32-bit integers) sign- or zero-extended as `isUnsigned` says; nullopt
/// when it is not such a constant. For reading weights at compile time,
/// whatever their size.
std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value,
                                                       bool isUnsigned);

/// The elements of the f32 constant `value` (dense or a dense resource),
/// or nullopt.
std::optional<llvm::SmallVector<float>> constantFloats(mlir::Value value);

/// An attribute for a constant of `type` holding `values` (as many as the
/// type has elements): dense when small, else a dense resource blob named
/// after `name`, which keeps large weights out of the uniqued attributes.
mlir::ElementsAttr makeConstantElements(mlir::RankedTensorType type,
                                        llvm::ArrayRef<float> values,
                                        llvm::StringRef name);
mlir::ElementsAttr makeConstantElements(mlir::RankedTensorType type,
                                        llvm::ArrayRef<int8_t> values,
                                        llvm::StringRef name);
mlir::ElementsAttr makeConstantElements(mlir::RankedTensorType type,
                                        llvm::ArrayRef<int32_t> values,
                                        llvm::StringRef name);

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_IR_FOLDING_H
