/*===- cuda.h - the runtime's CUDA backend (internal) -------------*- C -*-===*
 *
 * Loads a CUDA model's kernels through the driver API (found with dlopen at
 * run time) and runs its launch schedule. Used by model.c only.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_CUDA_H
#define INFER_RUNTIME_SRC_CUDA_H

#include "infer/abi.h"
#include "infer/status.h"
#include "infer/tensor.h"

struct infer_cuda_model;

/* Finds the driver and a device, loads the kernels, allocates the device
 * buffers. Fails with INFER_UNAVAILABLE (no driver, no device, an image the
 * device cannot load) or a driver error by name. */
infer_status_t infer_cuda_model_create(const infer_abi_model_t *abi,
                                       struct infer_cuda_model **out);

/* One run: `host_buffers` holds the inputs, then the outputs (host memory,
 * dense, as abi.h describes). Serialized per model. */
infer_status_t infer_cuda_model_run(struct infer_cuda_model *model,
                                    void *const *host_buffers);

void infer_cuda_model_destroy(struct infer_cuda_model *model);

#endif /* INFER_RUNTIME_SRC_CUDA_H */
