//===- IsolatedInference.h - libonnx's shape inference in a child -*- C++
//-*-===//
//
// libonnx's shape inference indexes dims and inputs with attribute values it
// has not checked: a hostile model makes it crash (fuzzing found Flatten,
// MaxUnpool, Gemm, QLinearConv, the pooling family, ...). It runs in a
// forked child so that a crash or a hang there costs the compile only the
// types it would have inferred: the parent copies the inferred value types
// back, or goes on without them, and the graph dialect's verifiers and
// shape inference then judge the model. The child dies with the compiler
// (PR_SET_PDEATHSIG), and its address space is capped at the compiler's
// plus 8 GiB.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_IMPORT_ONNX_ISOLATEDINFERENCE_H
#define INFER_COMPILER_IMPORT_ONNX_ISOLATEDINFERENCE_H

#include "onnx/onnx_pb.h"

#include <string>

namespace infer::onnx_import {

/// Runs libonnx's shape inference (data propagation on) over `model` in a
/// child process and merges the types it infers into `model`. Returns false
/// with `problem` set (one line) when the inference threw, crashed or ran
/// past `timeoutSeconds`; `model` is then unchanged. The inference runs
/// strict first: `strictError` gets the first error it reports (an op's
/// inference function refusing its inputs, or a type that contradicts the
/// model's), and the types then come from a lenient run.
bool inferShapesIsolated(onnx::ModelProto &model, std::string &problem,
                         std::string &strictError, int timeoutSeconds = 120);

} // namespace infer::onnx_import

#endif // INFER_COMPILER_IMPORT_ONNX_ISOLATEDINFERENCE_H
