//===- Tolerance.h - comparison tolerances for the tools --------*- C++ -*-===//
//
// The tools' view of infer/tolerance.h, the one table of how closely an
// output must match (numpy.allclose). infer-run's --rtol/--atol override
// the float rows.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_TOLERANCE_H
#define INFER_TOOLS_COMMON_TOLERANCE_H

#include "infer/tolerance.h"

namespace infer::tools {

struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

/// The table's tolerance for `dtype`; {0, 0} (exact) when it has none.
inline Tolerance defaultTolerance(infer_dtype_t dtype) {
  infer_tolerance_t row = infer_default_tolerance(dtype);
  return {row.rtol, row.atol};
}

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_TOLERANCE_H
