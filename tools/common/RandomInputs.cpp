//===- RandomInputs.cpp - seeded random inputs for a model ----------------===//

#include "tools/common/RandomInputs.h"

#include "tools/common/Elements.h"
#include "tools/common/RuntimeHandles.h"

#include <random>

namespace infer::tools {

std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> floats(-1.0, 1.0);
  std::uniform_int_distribution<uint64_t> integers(0, 9);
  std::uniform_int_distribution<uint64_t> bools(0, 1);
  std::vector<Tensor> inputs;
  for (size_t i = 0, e = infer_model_num_inputs(model); i < e; ++i) {
    const infer_abi_tensor_t *declared = infer_model_input(model, i);
    auto dtype = static_cast<infer_dtype_t>(declared->dtype);
    // Dynamic dims take the profile's optimal size.
    std::vector<int64_t> shape(declared->shape, declared->shape + declared->rank);
    check(infer_model_input_range(model, i, nullptr, shape.data(), nullptr),
          "input range");
    Tensor tensor = makeTensor(dtype, shape);
    void *data = infer_tensor_data(tensor.get());
    size_t count = infer_tensor_num_elements(tensor.get());
    for (size_t j = 0; j < count; ++j) {
      if (isFloatDtype(dtype)) {
        setFloatElement(dtype, data, j, floats(generator));
      } else if (dtype == INFER_DTYPE_BOOL) {
        setIntegerElement(dtype, data, j, bools(generator));
      } else {
        setIntegerElement(dtype, data, j, integers(generator));
      }
    }
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

} // namespace infer::tools
