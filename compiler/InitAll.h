//===- InitAll.h - register infer's dialects, passes, pipelines -*- C++ -*-===//

#ifndef INFER_COMPILER_INITALL_H
#define INFER_COMPILER_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace infer {

/// The dialects infer's IR may contain (graph and the upstream ones the
/// pipeline lowers to).
void registerAllDialects(mlir::DialectRegistry &registry);

/// infer's passes and named pipelines, plus the upstream passes they use.
void registerAllPasses();

} // namespace infer

#endif // INFER_COMPILER_INITALL_H
