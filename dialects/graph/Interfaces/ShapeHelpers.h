//===- ShapeHelpers.h - shape arithmetic shared by graph ops ----*- C++ -*-===//
//
// Small helpers the shape inference implementations, verifiers and folders
// share: reading constant operands, broadcasting, normalising axes.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_INTERFACES_SHAPEHELPERS_H
#define INFER_DIALECTS_GRAPH_INTERFACES_SHAPEHELPERS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"
#include <optional>

namespace infer::graph {

inline constexpr int64_t kDynamic = mlir::ShapedType::kDynamic;

/// The integer values of `value` when it is produced by a constant (dense
/// integer elements); std::nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>> getConstantInts(mlir::Value value);

/// The dense elements of a constant-producing value, or null.
mlir::DenseElementsAttr getConstantElements(mlir::Value value);

/// True when `value` is the result of `graph.none`.
bool isNone(mlir::Value value);

/// The ranked tensor type of `value`, or null when unranked / not a tensor.
mlir::RankedTensorType getRanked(mlir::Value value);

/// Builds a ranked tensor type with `shape` and the element type of
/// `like` (a tensor type); returns `like` unchanged when it is not a tensor.
mlir::Type withShape(mlir::Type like, llvm::ArrayRef<int64_t> shape);

/// An unranked tensor of the element type of `like`.
mlir::Type unrankedLike(mlir::Type like);

/// numpy broadcasting of two shapes; std::nullopt when incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The product of two dims, dynamic when either is.
int64_t mulDims(int64_t a, int64_t b);

/// Normalises a possibly negative axis into [0, rank); std::nullopt when out
/// of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Fails on `op` with "axis A is out of range for an input of rank R" when
/// `input` is ranked and `axis` lies outside [-R, R).
llvm::LogicalResult verifyAxis(mlir::Operation *op, int64_t axis,
                               mlir::Value input);

/// Fails on `op` with "'NAME' must hold one value, got TYPE" when `value` is
/// ranked and not a scalar or a 1-d tensor of one element (a dynamic length
/// fails too: the lowerings read one value). A none value passes.
llvm::LogicalResult verifySingleValue(mlir::Operation *op, llvm::StringRef name,
                                      mlir::Value value);

/// Parses a shape written "D0xD1x..." (an empty string is a scalar);
/// failure unless every dim is a non-negative integer.
llvm::FailureOr<llvm::SmallVector<int64_t>> parseDims(llvm::StringRef text);

/// Output size of a pooling or convolution window along one dimension.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t dilation, int64_t padBegin, int64_t padEnd,
                         bool ceilMode);

/// Spatial output sizes of a convolution or pooling window (`autoPad` as
/// in ONNX: NOTSET, VALID, SAME_UPPER, SAME_LOWER).
llvm::SmallVector<int64_t>
windowOutputShape(llvm::ArrayRef<int64_t> inSpatial,
                  llvm::ArrayRef<int64_t> kernel,
                  std::optional<llvm::ArrayRef<int64_t>> strides,
                  std::optional<llvm::ArrayRef<int64_t>> dilations,
                  std::optional<llvm::ArrayRef<int64_t>> pads,
                  llvm::StringRef autoPad, bool ceilMode);

/// numpy matmul result shape of `a` x `b`; std::nullopt with `error` set on
/// a mismatch.
std::optional<llvm::SmallVector<int64_t>> matmulShape(mlir::RankedTensorType a,
                                                      mlir::RankedTensorType b,
                                                      std::string &error);

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_INTERFACES_SHAPEHELPERS_H
