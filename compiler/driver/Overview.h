//===- Overview.h - what infer-compile --help says first --------*- C++ -*-===//
//
// The overview above infer-compile's options: examples of the main jobs and
// how the phases map to infer-opt pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_DRIVER_OVERVIEW_H
#define INFER_COMPILER_DRIVER_OVERVIEW_H

namespace infer {

extern const char *const kCompileOverview;

} // namespace infer

#endif // INFER_COMPILER_DRIVER_OVERVIEW_H
