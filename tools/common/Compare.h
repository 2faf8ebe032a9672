//===- Compare.h - comparing an output with its expected value ----*- C++
//-*-===//

#ifndef INFER_TOOLS_COMMON_COMPARE_H
#define INFER_TOOLS_COMMON_COMPARE_H

#include "tools/common/Tolerance.h"

#include "infer/tensor.h"

#include <cstddef>
#include <string>

namespace infer::tools {

/// The outcome of comparing one tensor with its expected value.
struct Comparison {
  bool pass = true;
  /// Set when the tensors cannot be compared (dtype or shape differ).
  std::string incompatible;
  /// Largest |got - expected| over finite pairs (infinity when an infinity
  /// or NaN does not match).
  double maxAbsError = 0.0;
  /// Largest |got - expected| / |expected| over finite pairs with a nonzero
  /// expected value.
  double maxRelError = 0.0;
  size_t mismatches = 0;
  size_t numElements = 0;
  /// The first element out of tolerance, when any.
  size_t firstMismatch = 0;
  std::string firstGot, firstExpected;
};

/// Compares `got` with `expected` element by element. Floats: within
/// `tolerance` (numpy.allclose), NaN matches NaN, infinities must be equal.
/// Integers and bools: equal. Dtypes and shapes must be identical.
Comparison compareTensors(infer_tensor_t got, infer_tensor_t expected,
                          Tolerance tolerance);

/// The multi-dimensional index of flat element `index`: "[1,2]".
std::string formatIndex(infer_tensor_t tensor, size_t index);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_COMPARE_H
