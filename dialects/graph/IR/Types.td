//===- Types.td - graph dialect types -------------------------------------===//
//
// Tensors are builtin tensors. ONNX also has strings, sequences and
// optionals; they get types of their own here.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_TYPES_TD
#define INFER_DIALECTS_GRAPH_IR_TYPES_TD

include "mlir/IR/AttrTypeBase.td"

class Graph_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Graph_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Graph_StringType : Graph_Type<"String", "string"> {
  let summary = "ONNX string element type";
  let description = [{
    The element type of ONNX string tensors, e.g. `tensor<3x!graph.string>`.
  }];
}

def Graph_SequenceType : Graph_Type<"Sequence", "seq"> {
  let summary = "ONNX sequence of tensors";
  let description = [{
    An ordered, variable-length list of tensors that share an element type,
    e.g. `!graph.seq<tensor<?x3xf32>>`. The element type describes every
    member (dimensions that differ between members are `?`).
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Graph_OptionalType : Graph_Type<"Optional", "opt"> {
  let summary = "ONNX optional value";
  let description = [{
    A value that may be absent: `!graph.opt<tensor<2xf32>>` or
    `!graph.opt<!graph.seq<tensor<?xf32>>>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

#endif // INFER_DIALECTS_GRAPH_IR_TYPES_TD
