//===- QuantOps.cpp - quantization graph ops ------------------------------===//

#include "dialects/graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace infer::graph;

#define GET_OP_CLASSES
#include "dialects/graph/IR/QuantOps.cpp.inc"
