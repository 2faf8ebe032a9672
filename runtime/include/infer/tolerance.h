/*===- tolerance.h - how closely an output must match, per dtype -*- C -*-===*
 *
 * The one table of comparison tolerances, shared by the tools that check
 * outputs (infer-run, the test suites) and the code the compiler generates
 * to check them (the HLS C-simulation testbench). A float element passes
 * when |got - expected| <= atol + rtol * |expected| (numpy.allclose).
 * Dtypes not in the table (integers, bool) compare exactly.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_TOLERANCE_H
#define INFER_RUNTIME_TOLERANCE_H

#include "infer/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct infer_tolerance {
  infer_dtype_t dtype;
  double rtol;
  double atol;
} infer_tolerance_t;

/* Default tolerances of the float dtypes. */
static const infer_tolerance_t infer_default_tolerances[] = {
    {INFER_DTYPE_F32, 1e-3, 1e-5},
    {INFER_DTYPE_F16, 1e-2, 1e-3},
    {INFER_DTYPE_BF16, 1e-2, 1e-3},
    {INFER_DTYPE_F64, 1e-7, 1e-9},
};

/* The table's row for `dtype`; {dtype, 0, 0} (exact) when it has none. */
static inline infer_tolerance_t infer_default_tolerance(infer_dtype_t dtype) {
  unsigned n =
      sizeof(infer_default_tolerances) / sizeof(infer_default_tolerances[0]);
  for (unsigned i = 0; i < n; ++i) {
    if (infer_default_tolerances[i].dtype == dtype) {
      return infer_default_tolerances[i];
    }
  }
  infer_tolerance_t exact = {dtype, 0.0, 0.0};
  return exact;
}

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_TOLERANCE_H */
