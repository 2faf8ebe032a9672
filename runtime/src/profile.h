/*===- profile.h - kernel profiles of models compiled with --profile --===*/

#ifndef INFER_RUNTIME_SRC_PROFILE_H
#define INFER_RUNTIME_SRC_PROFILE_H

#include "infer/abi.h"
#include "infer/status.h"

/* The profile of `abi`, or NULL when it was compiled without --profile. */
const infer_abi_profile_t *infer_abi_profile(const infer_abi_model_t *abi);

/* INVALID_ARGUMENT when `abi`'s profile is malformed (a segment naming no
 * kernel, stamps outside the workspace), else NULL. */
infer_status_t infer_check_abi_profile(const infer_abi_model_t *abi);

/* The cycle counter's ticks per nanosecond, measured once per process;
 * UNAVAILABLE on a machine without a counter the runtime can read. */
infer_status_t infer_profile_ticks_per_ns(double *out_rate);

#endif /* INFER_RUNTIME_SRC_PROFILE_H */
