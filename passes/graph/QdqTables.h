//===- QdqTables.h - quantized elementwise chains as tables -----*- C++ -*-===//
//
// The patterns infer-graph-fold-qdq applies last (see QdqTables.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_GRAPH_QDQTABLES_H
#define INFER_PASSES_GRAPH_QDQTABLES_H

#include "mlir/IR/PatternMatch.h"

namespace infer::graph {

/// A QuantizeLinear ending a chain of elementwise float ops over one 8-bit
/// tensor (read through DequantizeLinear, with QuantizeLinear/
/// DequantizeLinear pairs inside) becomes a Gather from the chain's 256
/// results, computed at compile time as the lowering computes them.
void populateQdqTablePatterns(mlir::RewritePatternSet &patterns);

} // namespace infer::graph

#endif // INFER_PASSES_GRAPH_QDQTABLES_H
