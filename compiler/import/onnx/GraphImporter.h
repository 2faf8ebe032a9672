//===- GraphImporter.h - ONNX GraphProto -> graph ops -----------*- C++ -*-===//

#ifndef INFER_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H
#define INFER_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H

#include "compiler/import/onnx/TypeImport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace infer::onnx_import {

/// The attribute `name` of `attrs` as a `T`, or null.
template <typename T>
T attrAs(const mlir::NamedAttrList &attrs, llvm::StringRef name) {
  return llvm::dyn_cast_or_null<T>(attrs.get(name));
}

/// What an opset upgrade hook sees and may rewrite: the node's operands
/// (missing inputs are `graph.none`), attributes and the op to create.
struct NodeState {
  const onnx::NodeProto *node = nullptr;
  int opsetVersion = 0;
  std::string opName; // e.g. "graph.resize"
  llvm::SmallVector<mlir::Value> operands;
  mlir::NamedAttrList attributes;
  mlir::Location loc;
  /// When a hook builds the replacement itself it sets these and the
  /// generic op creation is skipped.
  llvm::SmallVector<mlir::Value> replacement;
  bool replaced = false;
};

class GraphImporter {
public:
  GraphImporter(mlir::MLIRContext *context, const onnx::ModelProto &model,
                TensorImportOptions tensorOptions, std::string modelName);

  /// Builds `func.func @<name>` in `module`. Returns failure after emitting
  /// diagnostics.
  llvm::LogicalResult importMainGraph(mlir::ModuleOp module,
                                      llvm::StringRef functionName);

  // Used by the opset upgrade hooks.
  mlir::OpBuilder &builder() { return builder_; }
  mlir::Value none();
  mlir::Value i64Constant(mlir::Location loc, llvm::ArrayRef<int64_t> values,
                          bool scalar = false);
  mlir::Value scalarConstant(mlir::Location loc, mlir::Type elementType,
                             double value);

private:
  struct UnsupportedOp {
    std::string firstNode;
    int count = 0;
  };

  llvm::LogicalResult importNodes(const onnx::GraphProto &graph);
  llvm::LogicalResult importNode(const onnx::NodeProto &node, int index);
  llvm::LogicalResult importInitializers(const onnx::GraphProto &graph);
  llvm::LogicalResult importRegion(const onnx::GraphProto &graph,
                                   mlir::Region &region,
                                   const NodeState &owner);
  llvm::LogicalResult convertAttributes(NodeState &state,
                                        const onnx::OpSchema *schema);
  mlir::Type resultType(const std::string &name, NodeState &state,
                        const onnx::OpSchema *schema, size_t index);
  mlir::Value lookup(const std::string &name);
  void collectValueTypes(const onnx::GraphProto &graph);
  void collectReadNames(const onnx::GraphProto &graph);
  mlir::Location nodeLoc(const onnx::NodeProto &node, int index);
  int opsetFor(const std::string &domain) const;

  mlir::MLIRContext *context_;
  const onnx::ModelProto &model_;
  TensorImportOptions tensorOptions_;
  std::string modelName_;
  mlir::OpBuilder builder_;
  std::map<std::string, int> opsets_;
  /// Value names in scope, innermost subgraph last.
  std::vector<llvm::StringMap<mlir::Value>> scopes_;
  /// Declared types of values (value_info, inputs, outputs) by name.
  std::map<std::string, const onnx::TypeProto *> valueTypes_;
  /// Every value name a node (of any subgraph) reads or a graph returns:
  /// an output the op does not produce may be dropped when not in here.
  std::set<std::string> readNames_;
  llvm::DenseMap<mlir::Block *, mlir::Value> noneValues_;
  /// Unsupported (op type, opset) -> first node and count, reported at once.
  std::map<std::pair<std::string, int>, UnsupportedOp> unsupported_;
  bool hadError_ = false;
};

/// Rewrites older-opset forms of a node into the graph dialect's single
/// (newest) form. Returns failure after emitting an error.
llvm::LogicalResult upgradeNode(GraphImporter &importer, NodeState &state);

/// Whether an ONNX attribute with this name may be dropped because it only
/// mattered in old opsets or to training (`consumed_inputs`, `is_test`...).
bool isIgnorableLegacyAttribute(llvm::StringRef opType, llvm::StringRef name);

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_GRAPHIMPORTER_H
