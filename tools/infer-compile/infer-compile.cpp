//===- infer-compile.cpp - the infer ahead-of-time compiler ---------------===//

#include "compiler/driver/CompileDriver.h"

int main(int argc, char **argv) { return infer::runCompileDriver(argc, argv); }
