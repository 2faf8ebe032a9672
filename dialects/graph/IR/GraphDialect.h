//===- GraphDialect.h - the graph dialect and its types ---------*- C++ -*-===//

#ifndef INFER_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
#define INFER_DIALECTS_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/graph/IR/GraphDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/graph/IR/GraphTypes.h.inc"

#endif // INFER_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
