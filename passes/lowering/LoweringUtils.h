//===- LoweringUtils.h - what graph lowerings share -------------*- C++ -*-===//
//
// One include for a lowering pattern file: the pieces it is built from.
//   TensorTypes.h     what a pattern accepts; StaticPattern, CheckedPattern
//   TensorBuilders.h  empty/filled tensors, broadcasting, elementwise,
//                     indexed and reduction generics, reshapes, casts
//   IndexMath.h       index arithmetic and loops in bodies
//   RuntimeChecks.h   asserts the run checks, naming the ONNX node
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_LOWERINGUTILS_H
#define INFER_PASSES_LOWERING_LOWERINGUTILS_H

#include "passes/lowering/IndexMath.h"
#include "passes/lowering/RuntimeChecks.h"
#include "passes/lowering/TensorBuilders.h"
#include "passes/lowering/TensorTypes.h"

#endif // INFER_PASSES_LOWERING_LOWERINGUTILS_H
