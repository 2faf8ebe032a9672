//===- ShapeInference.h - result type inference for graph ops ---*- C++ -*-===//

#ifndef INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_H
#define INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"

namespace infer::graph {

/// Results take the first operand's shape (elementwise unary ops).
template <typename ConcreteType>
class SameShapeInference
    : public mlir::OpTrait::TraitBase<ConcreteType, SameShapeInference> {};

/// Results take the numpy-broadcast shape of the tensor operands.
template <typename ConcreteType>
class BroadcastShapeInference
    : public mlir::OpTrait::TraitBase<ConcreteType, BroadcastShapeInference> {};

/// Results drop (or keep as 1) the dimensions named by the `axes` operand.
template <typename ConcreteType>
class ReduceShapeInference
    : public mlir::OpTrait::TraitBase<ConcreteType, ReduceShapeInference> {};

/// The default `inferResultTypes`: dispatches on the traits above; an op with
/// none of them keeps its declared result types.
llvm::LogicalResult
inferResultTypesFromTraits(mlir::Operation *op,
                           llvm::SmallVectorImpl<mlir::Type> &inferred);

} // namespace infer::graph

#include "dialects/graph/Interfaces/ShapeInference.h.inc"

#endif // INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_H
