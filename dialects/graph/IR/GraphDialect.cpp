//===- GraphDialect.cpp - the graph dialect -------------------------------===//

#include "dialects/graph/IR/GraphDialect.h"
#include "dialects/graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace infer::graph;

#include "dialects/graph/IR/GraphDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/graph/IR/GraphTypes.cpp.inc"

void GraphDialect::initialize() {
  registerTypes();
  registerOps();
}

void GraphDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/graph/IR/GraphTypes.cpp.inc"
      >();
}

void GraphDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "dialects/graph/IR/ElementwiseOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/graph/IR/NNOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/graph/IR/TensorOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/graph/IR/ReductionOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/graph/IR/QuantOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/graph/IR/ControlFlowOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type) {
    return nullptr;
  }
  return ConstantOp::create(builder, loc, elements);
}
