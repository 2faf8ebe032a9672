/*===- dynamic.h - running the generic variant of a dynamic model --*- C -*-===*
 *
 * Internal to the runtime: models whose inputs or outputs have dynamic
 * dims (abi_version >= 5, `run_dynamic` set).
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_DYNAMIC_H
#define INFER_RUNTIME_SRC_DYNAMIC_H

#include "infer/runtime.h"

#include <stdbool.h>

/* Whether `abi` is a dynamic model. */
bool infer_abi_is_dynamic(const infer_abi_model_t *abi);

/* Checks input `index` of a dynamic model: dtype, rank, the static dims
 * and the profile's range at the dynamic ones. */
infer_status_t infer_dynamic_check_input(const infer_abi_model_t *abi,
                                         size_t index, infer_tensor_t tensor);

/* Runs the generic variant on checked inputs, its buffers coming from
 * `allocator`, and makes the output tensors (copied out of the buffers the
 * code allocated, which go back). On failure every out_outputs entry
 * stays NULL. */
infer_status_t infer_dynamic_run(const infer_abi_model_t *abi,
                                 const char *model_name,
                                 const infer_tensor_t *inputs, void *workspace,
                                 infer_abi_allocator_t *allocator,
                                 infer_tensor_t *out_outputs);

/* The status of a run whose run-time check `failed_check` (k > 0) failed. */
infer_status_t infer_check_failure(const infer_abi_model_t *abi,
                                   const char *model_name,
                                   int32_t failed_check);

/* infer_model_input_range on the ABI. */
infer_status_t infer_dynamic_range(const infer_abi_model_t *abi, size_t index,
                                   int64_t *out_min, int64_t *out_opt,
                                   int64_t *out_max);

#endif /* INFER_RUNTIME_SRC_DYNAMIC_H */
