//===- RandomInputs.cpp - seeded random inputs for a model ----------------===//

#include "tools/common/RandomInputs.h"

#include "tools/common/Elements.h"
#include "tools/common/RuntimeHandles.h"

#include <fmt/core.h>

#include <cstdlib>
#include <random>

namespace infer::tools {

ShapeChoices parseShapeChoices(infer_model_t model,
                               const std::vector<std::string> &entries) {
  ShapeChoices choices;
  for (const std::string &entry : entries) {
    size_t eq = entry.find('=');
    std::string name = entry.substr(0, eq);
    size_t index = 0;
    infer_status_t missing =
        eq == std::string::npos ? nullptr : infer_model_find_input(model, name.c_str(), &index);
    bool found = eq != std::string::npos && !missing;
    infer_status_free(missing);
    if (!found) {
      throw ToolError(fmt::format(
          "--shape '{}': expected NAME=D0xD1... naming an input of the model", entry));
    }
    std::vector<int64_t> dims;
    std::string rest = entry.substr(eq + 1);
    size_t start = 0;
    while (true) {
      size_t x = rest.find('x', start);
      std::string part = rest.substr(start, x == std::string::npos ? x : x - start);
      char *end = nullptr;
      long long d = std::strtoll(part.c_str(), &end, 10);
      if (part.empty() || *end != '\0' || d < 0) {
        throw ToolError(fmt::format("--shape '{}': '{}' is not a dimension", entry, part));
      }
      dims.push_back(d);
      if (x == std::string::npos) {
        break;
      }
      start = x + 1;
    }
    choices[name] = dims;
  }
  return choices;
}

std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed,
                                 const ShapeChoices &shapes) {
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
    if (auto chosen = shapes.find(declared->name); chosen != shapes.end()) {
      shape = chosen->second; // the runtime checks it against the model
    }
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
