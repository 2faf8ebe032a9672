//===- RuntimeHandles.h - C++ ownership over the runtime's C API --*- C++
//-*-===//
//
// RAII handles for infer_model_t / infer_tensor_t, a ToolError exception that
// the tools' mains turn into "tool: error: message" and exit status 1, and
// small formatting helpers shared by infer-run and infer-bench.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_RUNTIMEHANDLES_H
#define INFER_TOOLS_COMMON_RUNTIMEHANDLES_H

#include "infer/runtime.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace infer::tools {

/// A user-facing error: bad arguments, unreadable files, mismatched data.
/// The message is one line and says what to fix.
class ToolError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct TensorDeleter {
  void operator()(infer_tensor_t tensor) const { infer_tensor_release(tensor); }
};
/// An owned runtime tensor.
using Tensor = std::unique_ptr<struct infer_tensor, TensorDeleter>;

struct ModelDeleter {
  void operator()(infer_model_t model) const { infer_model_release(model); }
};
/// An owned runtime model.
using Model = std::unique_ptr<struct infer_model, ModelDeleter>;

/// Throws a ToolError with `context: message` when `status` is not OK, and
/// frees the status either way.
void check(infer_status_t status, const std::string &context = "");

/// Creates a zero-filled tensor; throws on failure.
Tensor makeTensor(infer_dtype_t dtype, const std::vector<int64_t> &shape);

/// Loads `path` through infer_model_load; `name` may be empty. A run uses
/// `intraOpThreads` threads (0: one per CPU), fewer on a busy machine
/// unless `fixedThreads` (infer_model_options_t::fixed_threads).
Model loadModel(const std::string &path, const std::string &name,
                int64_t intraOpThreads = 0, bool fixedThreads = false);

/// "[1,3,224,224]"
std::string formatShape(const int64_t *shape, int32_t rank);
std::string formatShape(infer_tensor_t tensor);

/// "float32 [2,3]" for a declared input or output.
std::string describe(const infer_abi_tensor_t &declared);

/// Runs the model on `inputs`, returning the outputs; throws on failure.
std::vector<Tensor> runModel(infer_model_t model,
                             const std::vector<Tensor> &inputs);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_RUNTIMEHANDLES_H
