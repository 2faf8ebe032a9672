//===- RandomInputs.cpp - seeded random inputs for a model ----------------===//

#include "tools/common/RandomInputs.h"

#include "tools/common/Elements.h"
#include "tools/common/RuntimeHandles.h"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <climits>
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
        eq == std::string::npos
            ? nullptr
            : infer_model_find_input(model, name.c_str(), &index);
    bool found = eq != std::string::npos && !missing;
    infer_status_free(missing);
    if (!found) {
      throw ToolError(fmt::format(
          "--shape '{}': expected NAME=D0xD1... naming an input of the model",
          entry));
    }
    std::vector<int64_t> dims;
    std::string rest = entry.substr(eq + 1);
    size_t start = 0;
    while (true) {
      size_t x = rest.find('x', start);
      std::string part =
          rest.substr(start, x == std::string::npos ? x : x - start);
      char *end = nullptr;
      long long d = std::strtoll(part.c_str(), &end, 10);
      if (part.empty() || *end != '\0' || d < 0) {
        throw ToolError(
            fmt::format("--shape '{}': '{}' is not a dimension", entry, part));
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

IntRange parseIntRange(const std::string &text) {
  size_t colon = text.find(':');
  auto parse = [&](const std::string &part, int64_t &out) {
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || errno == ERANGE) {
      return false;
    }
    out = v;
    return true;
  };
  IntRange range;
  if (colon == std::string::npos || !parse(text.substr(0, colon), range.lo) ||
      !parse(text.substr(colon + 1), range.hi) || range.lo > range.hi) {
    throw ToolError(fmt::format(
        "--int-range '{}': expected LO:HI with LO <= HI, e.g. 0:1", text));
  }
  return range;
}

/// The smallest and largest value of an integer dtype, as int64.
static std::pair<int64_t, int64_t> dtypeBounds(infer_dtype_t dtype) {
  switch (dtype) {
  case INFER_DTYPE_U8:
    return {0, UINT8_MAX};
  case INFER_DTYPE_I8:
    return {INT8_MIN, INT8_MAX};
  case INFER_DTYPE_U16:
    return {0, UINT16_MAX};
  case INFER_DTYPE_I16:
    return {INT16_MIN, INT16_MAX};
  case INFER_DTYPE_I32:
    return {INT32_MIN, INT32_MAX};
  case INFER_DTYPE_U32:
    return {0, UINT32_MAX};
  case INFER_DTYPE_U64:
    return {0, INT64_MAX};
  default:
    return {INT64_MIN, INT64_MAX};
  }
}

std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed,
                                 const ShapeChoices &shapes, IntRange ints) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> floats(-1.0, 1.0);
  std::uniform_int_distribution<uint64_t> bools(0, 1);
  std::vector<Tensor> inputs;
  for (size_t i = 0, e = infer_model_num_inputs(model); i < e; ++i) {
    const infer_abi_tensor_t *declared = infer_model_input(model, i);
    auto dtype = static_cast<infer_dtype_t>(declared->dtype);
    // Dynamic dims take the profile's optimal size.
    std::vector<int64_t> shape(declared->shape,
                               declared->shape + declared->rank);
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
        auto [min, max] = dtypeBounds(dtype);
        std::uniform_int_distribution<int64_t> integers(
            std::clamp(ints.lo, min, max), std::clamp(ints.hi, min, max));
        setIntegerElement(dtype, data, j,
                          static_cast<uint64_t>(integers(generator)));
      }
    }
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

} // namespace infer::tools
