//===- Tolerance.h - default comparison tolerances per dtype ------*- C++
//-*-===//
//
// The one place that states how closely an output must match its expected
// value. A float element passes when |got - expected| <= atol + rtol *
// |expected| (numpy.allclose). Dtypes not in the table (integers, bool)
// compare exactly. infer-run's --rtol/--atol override the float rows.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_TOLERANCE_H
#define INFER_TOOLS_COMMON_TOLERANCE_H

#include "infer/abi.h"

namespace infer::tools {

struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

struct DtypeTolerance {
  infer_dtype_t dtype;
  Tolerance tolerance;
};

/// Default tolerances for the float dtypes.
inline constexpr DtypeTolerance kDefaultTolerances[] = {
    {INFER_DTYPE_F32, {1e-3, 1e-5}},
    {INFER_DTYPE_F16, {1e-2, 1e-3}},
    {INFER_DTYPE_BF16, {1e-2, 1e-3}},
    {INFER_DTYPE_F64, {1e-7, 1e-9}},
};

/// The table's tolerance for `dtype`; {0, 0} (exact) when it has none.
inline Tolerance defaultTolerance(infer_dtype_t dtype) {
  for (const DtypeTolerance &entry : kDefaultTolerances) {
    if (entry.dtype == dtype) {
      return entry.tolerance;
    }
  }
  return {};
}

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_TOLERANCE_H
