//===- Compare.cpp - comparing an output with its expected value ----------===//

#include "tools/common/Compare.h"

#include "tools/common/Elements.h"
#include "tools/common/RuntimeHandles.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

namespace infer::tools {

namespace {

/// Compares one pair of finite-or-not floats, updating `result`.
bool compareFloat(double got, double expected, Tolerance tolerance,
                  Comparison &result) {
  if (std::isnan(got) || std::isnan(expected)) {
    bool same = std::isnan(got) && std::isnan(expected);
    if (!same) {
      result.maxAbsError = std::numeric_limits<double>::infinity();
    }
    return same;
  }
  if (std::isinf(got) || std::isinf(expected)) {
    bool same = got == expected;
    if (!same) {
      result.maxAbsError = std::numeric_limits<double>::infinity();
    }
    return same;
  }
  double error = std::fabs(got - expected);
  result.maxAbsError = std::max(result.maxAbsError, error);
  if (expected != 0.0) {
    result.maxRelError =
        std::max(result.maxRelError, error / std::fabs(expected));
  }
  return error <= tolerance.atol + tolerance.rtol * std::fabs(expected);
}

} // namespace

std::string formatIndex(infer_tensor_t tensor, size_t index) {
  int32_t rank = infer_tensor_rank(tensor);
  const int64_t *shape = infer_tensor_shape(tensor);
  std::vector<int64_t> position(static_cast<size_t>(rank));
  for (int32_t d = rank - 1; d >= 0; --d) {
    uint64_t dim = static_cast<uint64_t>(shape[d]);
    position[d] = static_cast<int64_t>(index % dim);
    index /= dim;
  }
  return formatShape(position.data(), rank);
}

Comparison compareTensors(infer_tensor_t got, infer_tensor_t expected,
                          Tolerance tolerance) {
  Comparison result;
  infer_dtype_t dtype = infer_tensor_dtype(got);
  if (dtype != infer_tensor_dtype(expected) ||
      formatShape(got) != formatShape(expected)) {
    result.pass = false;
    result.incompatible = fmt::format(
        "expected {} {}, got {} {}",
        infer_dtype_name(infer_tensor_dtype(expected)), formatShape(expected),
        infer_dtype_name(dtype), formatShape(got));
    return result;
  }
  const void *gotData = infer_tensor_data(got);
  const void *expectedData = infer_tensor_data(expected);
  result.numElements = infer_tensor_num_elements(got);
  bool isFloat = isFloatDtype(dtype);
  bool isUnsigned = isUnsignedDtype(dtype);
  for (size_t i = 0; i < result.numElements; ++i) {
    bool same;
    std::string gotText, expectedText;
    if (isFloat) {
      double g = floatElement(dtype, gotData, i);
      double e = floatElement(dtype, expectedData, i);
      same = compareFloat(g, e, tolerance, result);
      if (!same && result.mismatches == 0) {
        gotText = fmt::format("{}", g);
        expectedText = fmt::format("{}", e);
      }
    } else if (isUnsigned) {
      uint64_t g = unsignedElement(dtype, gotData, i);
      uint64_t e = unsignedElement(dtype, expectedData, i);
      same = g == e;
      double error =
          g > e ? static_cast<double>(g - e) : static_cast<double>(e - g);
      result.maxAbsError = std::max(result.maxAbsError, error);
      if (e != 0) {
        result.maxRelError =
            std::max(result.maxRelError, error / static_cast<double>(e));
      }
      if (!same && result.mismatches == 0) {
        gotText = fmt::format("{}", g);
        expectedText = fmt::format("{}", e);
      }
    } else {
      int64_t g = signedElement(dtype, gotData, i);
      int64_t e = signedElement(dtype, expectedData, i);
      same = g == e;
      double error = std::fabs(static_cast<double>(g) - static_cast<double>(e));
      result.maxAbsError = std::max(result.maxAbsError, error);
      if (e != 0) {
        result.maxRelError = std::max(
            result.maxRelError, error / std::fabs(static_cast<double>(e)));
      }
      if (!same && result.mismatches == 0) {
        gotText = fmt::format("{}", g);
        expectedText = fmt::format("{}", e);
      }
    }
    if (!same) {
      if (result.mismatches == 0) {
        result.firstMismatch = i;
        result.firstGot = gotText;
        result.firstExpected = expectedText;
      }
      ++result.mismatches;
    }
  }
  result.pass = result.mismatches == 0;
  return result;
}

} // namespace infer::tools
