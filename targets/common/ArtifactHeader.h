//===- ArtifactHeader.h - the C header of an artifact ----------*- C++ -*-===//
//
// Every target's artifact comes with `<name>.h`: a title saying how to use
// it, the model's constants (inputs, outputs, workspace size, OpenMP use),
// one comment per tensor, the target's entry points, and the `<name>_model`
// ABI constant the runtime loads.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_ARTIFACTHEADER_H
#define INFER_TARGETS_COMMON_ARTIFACTHEADER_H

#include "targets/common/Signature.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace infer::targets {

/// The C type of an element of ONNX type `dtype` ("void" if none).
const char *cType(int32_t dtype);

/// The ONNX name of `dtype` ("float32", ...; "unknown" if none).
const char *dtypeName(int32_t dtype);

/// A C identifier from an ONNX name: other characters become '_', and a
/// name that is empty or starts with a digit gets `fallback` in front.
std::string identifier(const std::string &name, const std::string &fallback);

/// "[1,3,224,224]".
std::string shapeText(const std::vector<int64_t> &shape);

/// The text of `<name>.h`: the title with `usage` (lines starting " * "),
/// the model's constants and tensor comments, then what
/// `entryDeclarations` returns (it gets each tensor's typed C parameter,
/// inputs then outputs, and may append to them), then the ABI constant.
std::string
headerText(const ModelSignature &sig, llvm::StringRef source,
           llvm::StringRef usage,
           llvm::function_ref<std::string(std::vector<std::string> &)>
               entryDeclarations);

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_ARTIFACTHEADER_H
