//===- RuntimeHandles.cpp - C++ ownership over the runtime's C API --------===//

#include "tools/common/RuntimeHandles.h"

#include <fmt/format.h>

namespace infer::tools {

void check(infer_status_t status, const std::string &context) {
  if (!status) {
    return;
  }
  std::string message = infer_status_message(status);
  infer_status_free(status);
  throw ToolError(context.empty() ? message : context + ": " + message);
}

Tensor makeTensor(infer_dtype_t dtype, const std::vector<int64_t> &shape) {
  infer_tensor_t tensor = nullptr;
  check(infer_tensor_create(dtype, static_cast<int32_t>(shape.size()),
                            shape.data(), &tensor));
  return Tensor(tensor);
}

Model loadModel(const std::string &path, const std::string &name,
                int64_t intraOpThreads, bool fixedThreads) {
  infer_model_options_t options{};
  options.struct_size = sizeof(options);
  options.intra_op_threads = static_cast<int32_t>(intraOpThreads);
  options.fixed_threads = fixedThreads ? 1 : 0;
  infer_model_t model = nullptr;
  check(infer_model_load_with_options(
      path.c_str(), name.empty() ? nullptr : name.c_str(), &options, &model));
  return Model(model);
}

std::string formatShape(const int64_t *shape, int32_t rank) {
  std::string text = "[";
  for (int32_t i = 0; i < rank; ++i) {
    text += fmt::format(i ? ",{}" : "{}", shape[i]);
  }
  return text + "]";
}

std::string formatShape(infer_tensor_t tensor) {
  return formatShape(infer_tensor_shape(tensor), infer_tensor_rank(tensor));
}

std::string describe(const infer_abi_tensor_t &declared) {
  return fmt::format(
      "{} {}", infer_dtype_name(static_cast<infer_dtype_t>(declared.dtype)),
      formatShape(declared.shape, declared.rank));
}

std::vector<Tensor> runModel(infer_model_t model,
                             const std::vector<Tensor> &inputs) {
  std::vector<infer_tensor_t> raw;
  raw.reserve(inputs.size());
  for (const Tensor &input : inputs) {
    raw.push_back(input.get());
  }
  std::vector<infer_tensor_t> outputs(infer_model_num_outputs(model));
  check(infer_model_run(model, raw.data(), raw.size(), outputs.data(),
                        outputs.size()));
  std::vector<Tensor> owned;
  owned.reserve(outputs.size());
  for (infer_tensor_t output : outputs) {
    owned.emplace_back(output);
  }
  return owned;
}

} // namespace infer::tools
