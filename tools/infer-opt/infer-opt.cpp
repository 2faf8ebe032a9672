//===- infer-opt.cpp - mlir-opt with infer's dialects and passes ----------===//

#include "compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  infer::registerAllDialects(registry);
  infer::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "infer-opt: infer's dialects, passes and pipelines\n",
      registry));
}
