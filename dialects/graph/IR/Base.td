//===- Base.td - graph dialect definition and op base classes -------------===//
//
// The `graph` dialect: tensors in, tensors out, one op per ONNX op with ONNX
// semantics. Op classes below fix the shapes shared by whole op families so
// each op definition only states what is particular to it.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_BASE_TD
#define INFER_DIALECTS_GRAPH_IR_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/graph/Interfaces/ShapeInference.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::infer::graph";
  let summary = "Tensor-level operations with ONNX semantics";
  let description = [{
    The `graph` dialect is the first level of infer's pipeline. The ONNX
    importer produces exactly one `graph` op per ONNX node; attribute defaults
    and opset differences are settled by the importer, so every op has a
    single form (the newest opset's: e.g. `axes` of reductions and
    `split` of Split are operands, not attributes). Dynamic dimensions are
    `?`. Missing optional operands are the value of `graph.none`.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerOps();
  }];
}

//===----------------------------------------------------------------------===//
// Types and type constraints
//===----------------------------------------------------------------------===//

include "dialects/graph/IR/Types.td"

// Any tensor element type ONNX has, including the graph dialect's string.
def Graph_Tensor : AnyTypeOf<[AnyTensor]>;
// The value of a missing optional input (`graph.none`).
def Graph_TensorOrNone : AnyTypeOf<[AnyTensor, NoneType], "tensor or none">;
// Anything an ONNX value can be: tensor, sequence, optional, none.
def Graph_AnyValue : AnyTypeOf<[AnyTensor, Graph_SequenceType,
                                Graph_OptionalType, NoneType],
                               "tensor, sequence, optional or none">;

//===----------------------------------------------------------------------===//
// Attribute helpers
//===----------------------------------------------------------------------===//

// A string attribute restricted to a set of spellings (ONNX's enum strings).
class Graph_StrOneOf<list<string> cases> : StringBasedAttr<
    And<[StrAttrPred, CPred<"::llvm::is_contained("
        # "::llvm::ArrayRef<::llvm::StringRef>{"
        # !interleave(!foreach(c, cases, "\"" # c # "\""), ", ")
        # "}, ::llvm::cast<::mlir::StringAttr>($_self).getValue())">]>,
    "string attribute, one of " # !interleave(cases, ", ")>;
class Graph_StrEnum<list<string> cases, string default>
    : DefaultValuedAttr<Graph_StrOneOf<cases>, "\"" # default # "\"">;

// A signed 64-bit integer attribute (ONNX INT): `I64Attr` returns uint64_t,
// which silently breaks negative axes.
def Graph_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                 "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}
class Graph_I64<int default> : DefaultValuedAttr<Graph_I64Attr, "" # default>;
class Graph_F32<string default> : DefaultValuedAttr<F32Attr, default>;
def Graph_OptI64s : OptionalAttr<DenseI64ArrayAttr>;
def Graph_OptF32s : OptionalAttr<DenseF32ArrayAttr>;
def Graph_AutoPad : Graph_StrEnum<["NOTSET", "SAME_UPPER", "SAME_LOWER",
                                   "VALID"], "NOTSET">;

//===----------------------------------------------------------------------===//
// Op base classes
//===----------------------------------------------------------------------===//

// Every graph op. `onnxName` is the ONNX op type the importer maps onto it.
class Graph_Op<string mnemonic, string onnxName, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, traits> {
  string onnx = onnxName;
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

// A side-effect free op whose result shapes come from the shape inference
// interface.
class Graph_PureOp<string mnemonic, string onnxName, list<Trait> traits = []>
    : Graph_Op<mnemonic, onnxName,
               !listconcat([Pure, DeclareOpInterfaceMethods<Graph_ShapeInferenceOpInterface, ["inferResultTypes"]>],
                           traits)>;

// Elementwise unary: one input, one output of the same type.
class Graph_UnaryOp<string mnemonic, string onnxName, string what,
                    Type type = AnyTensor, list<Trait> traits = []>
    : Graph_Op<mnemonic, onnxName,
               !listconcat([Pure, Graph_SameShapeInference], traits)> {
  let summary = "elementwise " # what # " (ONNX " # onnxName # ")";
  let description = "Computes " # what # " of every element of `X` with the "
      # "semantics of the ONNX `" # onnxName # "` operator.\n\nExample:\n\n"
      # "```mlir\n%y = graph." # mnemonic
      # " %x : (tensor<2x3xf32>) -> tensor<2x3xf32>\n```";
  let arguments = (ins type:$X);
  let results = (outs type:$Y);
}

// Elementwise binary with multidirectional (numpy) broadcasting.
class Graph_BinaryOp<string mnemonic, string onnxName, string what,
                     Type resultType = AnyTensor, list<Trait> traits = [],
                     bit sameElementType = 1>
    : Graph_Op<mnemonic, onnxName,
               !listconcat([Pure, Graph_BroadcastShapeInference],
                           !if(sameElementType, [SameOperandsElementType], []),
                           traits)> {
  let summary = "elementwise " # what # " with broadcasting (ONNX " # onnxName # ")";
  let description = "Computes " # what # " of `A` and `B` elementwise, "
      # "broadcasting both operands numpy-style to a common shape, with the "
      # "semantics of the ONNX `" # onnxName # "` operator.\n\nExample:\n\n"
      # "```mlir\n%c = graph." # mnemonic
      # " %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3x"
      # !if(!eq(resultType, I1Tensor), "i1", "f32") # ">\n```";
  let arguments = (ins AnyTensor:$A, AnyTensor:$B);
  let results = (outs resultType:$C);
}

// Variadic elementwise (Max, Min, Mean, Sum) with broadcasting.
class Graph_VariadicOp<string mnemonic, string onnxName, string what>
    : Graph_Op<mnemonic, onnxName, [Pure, Graph_BroadcastShapeInference,
                                    SameOperandsElementType]> {
  let summary = "elementwise " # what # " of any number of tensors (ONNX "
      # onnxName # ")";
  let description = "Computes the elementwise " # what # " of all inputs, "
      # "broadcast numpy-style to a common shape.\n\nExample:\n\n"
      # "```mlir\n%r = graph." # mnemonic
      # " %a, %b, %c : (tensor<3xf32>, tensor<1xf32>, tensor<3xf32>) -> "
      # "tensor<3xf32>\n```";
  let arguments = (ins Variadic<AnyTensor>:$inputs);
  let results = (outs AnyTensor:$result);
}

// Reductions over `axes` (an optional i64 operand, the opset-18 form).
class Graph_ReduceOp<string mnemonic, string onnxName, string what>
    : Graph_Op<mnemonic, onnxName, [Pure, Graph_ReduceShapeInference]> {
  let summary = what # " over the given axes (ONNX " # onnxName # ")";
  let description = "Reduces `data` with " # what # " over `axes` (all axes "
      # "when `axes` is none and `noop_with_empty_axes` is 0). `keepdims` "
      # "keeps reduced axes as size 1.\n\nExample:\n\n```mlir\n%r = graph."
      # mnemonic # " %x, %axes {keepdims = 1 : i64} : (tensor<2x3xf32>, "
      # "tensor<1xi64>) -> tensor<2x1xf32>\n```";
  let arguments = (ins AnyTensor:$data, Graph_TensorOrNone:$axes,
                   Graph_I64<1>:$keepdims,
                   Graph_I64<0>:$noop_with_empty_axes);
  let results = (outs AnyTensor:$reduced);
  let hasFolder = 1;
}

// The general case: `ins`/`outs` as ONNX lists them (missing optional inputs
// and outputs are `none`), attributes typed, ONNX's defaults. With
// `customInfer`, the op implements `inferResultTypes` in C++; otherwise its
// declared result types are kept as they are.
class Graph_OnnxOp<string mnemonic, string onnxName, string what, dag ins,
                   dag outs, bit customInfer = 0, list<Trait> traits = [Pure]>
    : Graph_Op<mnemonic, onnxName,
               !listconcat([!if(customInfer,
                   DeclareOpInterfaceMethods<Graph_ShapeInferenceOpInterface, ["inferResultTypes"]>,
                   Graph_ShapeInferenceOpInterface)], traits)> {
  let summary = what # " (ONNX " # onnxName # ")";
  let description = "Has the semantics of the ONNX `" # onnxName
      # "` operator in its newest opset; the importer rewrites older opset "
      # "forms into this one. Missing optional inputs and outputs are `none`.";
  let arguments = ins;
  let results = outs;
}

#endif // INFER_DIALECTS_GRAPH_IR_BASE_TD
