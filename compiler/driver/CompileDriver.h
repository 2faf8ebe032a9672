//===- CompileDriver.h - the infer-compile command --------------*- C++ -*-===//
//
// Library code behind `infer-compile`: option parsing, the phase sequence
// (import -> graph -> ...), printing and writing results. The tool's main
// is a one-line call so the driver can be tested and embedded.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_DRIVER_COMPILEDRIVER_H
#define INFER_COMPILER_DRIVER_COMPILEDRIVER_H

namespace infer {

/// Runs infer-compile with the given command line; returns the exit code.
int runCompileDriver(int argc, char **argv);

} // namespace infer

#endif // INFER_COMPILER_DRIVER_COMPILEDRIVER_H
