//===- AbiConstant.h - the `<name>_model` constant -------------*- C++ -*-===//
//
// Every artifact defines `const struct infer_abi_model <name>_model` (see
// runtime/include/infer/abi.h): the signature, the workspace size, the
// run-time checks' messages, the profile of a dynamic model's inputs, and
// where its code is: a CPU entry (static or dynamic) or a device
// descriptor (the CUDA kernels and launches).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_ABICONSTANT_H
#define INFER_TARGETS_COMMON_ABICONSTANT_H

#include "targets/common/Signature.h"

namespace llvm {
class Constant;
class Module;
} // namespace llvm

namespace infer::targets {

/// Where the model's code is; null members are stored as null pointers.
struct AbiEntryPoints {
  llvm::Constant *run = nullptr;         // int32_t (*)(void *const *)
  llvm::Constant *runDynamic = nullptr;  // the generic variant's entry
  llvm::Constant *device = nullptr;      // infer_abi_model.cuda
  llvm::Constant *setExecutor = nullptr; // infer_abi_model.set_executor
};

/// Adds the `<name>_model` constant for `sig` to `module`.
void addAbiConstant(llvm::Module &module, const ModelSignature &sig,
                    const AbiEntryPoints &entries);

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_ABICONSTANT_H
