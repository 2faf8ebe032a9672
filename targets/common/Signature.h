//===- Signature.h - a model's inputs and outputs as the ABI sees them -*- C++
//-*-===//
//
// Every target's artifact describes the model's entry point the same way:
// names, dtypes (ONNX numbering), shapes (-1 for a dynamic dim, with the
// profile's range), the planned workspace and the run-time checks'
// messages. The signature is read from the graph-level entry function and
// completed from the codegen pipeline's module attributes.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_SIGNATURE_H
#define INFER_TARGETS_COMMON_SIGNATURE_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace infer::targets {

/// One model input or output as the artifact exposes it.
struct TensorSignature {
  std::string name;           // the ONNX name
  int32_t dtype = 0;          // infer_dtype_t (ONNX numbering)
  std::vector<int64_t> shape; // -1: a dynamic dim (sized at run time)
  // Inputs with dynamic dims: the profile's smallest, optimal and largest
  // shapes (equal to `shape` at static dims).
  std::vector<int64_t> min, opt, max;
  bool isDynamic() const;
};

/// One kernel of a model compiled with --profile (infer_abi_kernel_t).
struct KernelSignature {
  std::string name;
  std::string opTypes;
  std::vector<std::string> nodes;
  double flops = 0;
  uint64_t bytes = 0;
};

struct ModelSignature {
  std::string name; // symbol prefix
  std::vector<TensorSignature> inputs;
  std::vector<TensorSignature> outputs;
  uint64_t workspaceSize = 0; // bytes; set from the planned module
  bool usesOpenMP = false;    // the code calls LLVM's OpenMP runtime
  bool usesExecutor = false;  // <name>_set_executor exists (CPU tasks)
  // Run-time checks (infer-checks-to-status): the entry function takes
  // a status argument last; status k > 0 means errors[k-1].
  bool hasStatus = false;
  std::vector<std::string> errors;
  // Some input or output has a dynamic dim: the code is a generic variant
  // that reads its shapes at run time.
  bool dynamic = false;
  // --profile: the kernels, each segment's kernel, and the workspace
  // offset of the cycle-counter stamps (infer_abi_profile_t).
  bool profiled = false;
  std::vector<KernelSignature> kernels;
  std::vector<uint32_t> segments;
  uint64_t stampsOffset = 0;
};

/// Reads names, dtypes and static shapes of the entry function `func`
/// (graph level). Fails with an error naming the first dynamic input or
/// unsupported type; `target` names the target in it.
/// With `allowDynamic`, `?` dims are kept (-1) and the signature is marked
/// dynamic.
llvm::LogicalResult readSignature(mlir::ModuleOp module, llvm::StringRef func,
                                  ModelSignature &signature,
                                  llvm::StringRef target = "CPU",
                                  bool allowDynamic = false);

/// The module attribute infer-prepare-entry records the signature in.
inline constexpr llvm::StringLiteral kSignatureAttr = "infer.signature";

/// `signature`'s name, inputs and outputs as a dictionary (see
/// infer-prepare-entry).
mlir::DictionaryAttr signatureToAttr(mlir::MLIRContext *context,
                                     const ModelSignature &signature);

/// Reads the name, inputs and outputs infer-prepare-entry recorded in
/// `module` into `signature`; fails with an error when there are none.
llvm::LogicalResult readSignatureAttr(mlir::ModuleOp module,
                                      ModelSignature &signature);

/// Appends the run-time checks' messages (the module's `infer.errors`, set
/// by infer-checks-to-status) to `signature.errors`; returns whether the
/// module has that attribute, i.e. whether its code reports a status.
bool readCheckMessages(mlir::ModuleOp module, ModelSignature &signature);

/// Sets each dynamic input's profile from `profiles` ("name=MIN:OPT:MAX" or
/// "name=MIN:MAX", each a shape like 1x3x224x224); inputs without one get
/// min 1, opt 1 and max INT64_MAX at their dynamic dims.
/// Reads the module attribute `infer.profile` (infer-cpu-profile-stamps)
/// into `signature`; leaves it unprofiled when there is none.
void readKernelProfile(mlir::ModuleOp module, ModelSignature &signature);

llvm::LogicalResult applyShapeProfiles(mlir::ModuleOp module,
                                       llvm::ArrayRef<std::string> profiles,
                                       ModelSignature &signature);

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_SIGNATURE_H
