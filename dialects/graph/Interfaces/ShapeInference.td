//===- ShapeInference.td - result type inference for graph ops ------------===//

#ifndef INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_TD
#define INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_TD

include "mlir/IR/OpBase.td"

def Graph_ShapeInferenceOpInterface : OpInterface<"ShapeInferenceOpInterface"> {
  let cppNamespace = "::infer::graph";
  let description = [{
    Computes result types from operand types and from operands that are
    constants (shape tensors, axes, repeats...). The inferred types may be
    less precise than the current ones: `infer-graph-propagate-shapes` joins
    them with the declared types, keeps every known dimension, and reports a
    conflict between two known dimensions as an error.

    Ops of a family get an implementation from a trait (`SameShapeInference`,
    `BroadcastShapeInference`); the others implement `inferResultTypes`.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends one type per result to `inferred`. Returns failure, after
        emitting an error on the op, when operand shapes are inconsistent.
      }],
      "::llvm::LogicalResult", "inferResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$inferred), [{}],
      [{ return ::infer::graph::inferResultTypesFromTraits($_op.getOperation(),
                                                           inferred); }]>
  ];
}

// Results have the shape of the first operand (elementwise unary ops).
def Graph_SameShape : NativeOpTrait<"SameShapeInference"> {
  let cppNamespace = "::infer::graph";
}
def Graph_SameShapeInference : TraitList<[
  Graph_ShapeInferenceOpInterface,
  Graph_SameShape
]>;

// Results have the numpy-broadcast shape of all tensor operands.
def Graph_Broadcast : NativeOpTrait<"BroadcastShapeInference"> {
  let cppNamespace = "::infer::graph";
}
def Graph_BroadcastShapeInference : TraitList<[
  Graph_ShapeInferenceOpInterface,
  Graph_Broadcast
]>;

// Results drop (or keep as 1) the dimensions named by the constant `axes`
// operand (reductions).
def Graph_Reduce : NativeOpTrait<"ReduceShapeInference"> {
  let cppNamespace = "::infer::graph";
}
def Graph_ReduceShapeInference : TraitList<[
  Graph_ShapeInferenceOpInterface,
  Graph_Reduce
]>;

#endif // INFER_DIALECTS_GRAPH_INTERFACES_SHAPEINFERENCE_TD
