//===- GraphOps.h - graph dialect operations --------------------*- C++ -*-===//

#ifndef INFER_DIALECTS_GRAPH_IR_GRAPHOPS_H
#define INFER_DIALECTS_GRAPH_IR_GRAPHOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/graph/IR/GraphDialect.h"
#include "dialects/graph/Interfaces/ShapeInference.h"

#define GET_OP_CLASSES
#include "dialects/graph/IR/ElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "dialects/graph/IR/NNOps.h.inc"
#define GET_OP_CLASSES
#include "dialects/graph/IR/TensorOps.h.inc"
#define GET_OP_CLASSES
#include "dialects/graph/IR/ReductionOps.h.inc"
#define GET_OP_CLASSES
#include "dialects/graph/IR/QuantOps.h.inc"
#define GET_OP_CLASSES
#include "dialects/graph/IR/ControlFlowOps.h.inc"

#endif // INFER_DIALECTS_GRAPH_IR_GRAPHOPS_H
