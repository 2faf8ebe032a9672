/*===- cuda.h - the runtime's CUDA backend (internal) -------------*- C -*-===*
 *
 * Loads a CUDA model's kernels through the driver API (found with dlopen at
 * run time) and runs its launch schedule. Used by model.c only.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_CUDA_H
#define INFER_RUNTIME_SRC_CUDA_H

#include "infer/abi.h"
#include "infer/runtime.h"
#include "infer/status.h"
#include "infer/tensor.h"

#include <stddef.h>
#include <stdint.h>

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

/* One run as infer_cuda_model_run that records a CUDA event before each
 * launch and after the last (launching one by one, never through the
 * graph): times_ns[i] is launch i's start, times_ns[num_launches] the
 * end, in ns from the first. UNAVAILABLE where the driver has no events. */
infer_status_t infer_cuda_model_run_profiled(struct infer_cuda_model *model,
                                             void *const *host_buffers,
                                             double *times_ns);

/* One run with inputs and outputs in device memory (addresses in the
 * model's context): device-to-device copies in and out of the model's own
 * buffers, so a captured graph stays valid. Serialized per model. */
infer_status_t infer_cuda_model_run_device(struct infer_cuda_model *model,
                                           const uint64_t *inputs,
                                           const uint64_t *outputs);

/* The model's device: its name, compute capability and roofline
 * ceilings from the driver's attributes (infer_model_device_info). */
infer_status_t infer_cuda_device_info(struct infer_cuda_model *model,
                                      infer_device_info_t *out);

/* Bytes of the model's buffer `index` (inputs, then outputs). */
size_t infer_cuda_model_buffer_size(const struct infer_cuda_model *model,
                                    size_t index);

/* Device memory in the model's context, and synchronous copies between it
 * and the host (`to_device` nonzero: host -> device). */
infer_status_t infer_cuda_alloc(struct infer_cuda_model *model, size_t bytes,
                                uint64_t *out);
infer_status_t infer_cuda_free(struct infer_cuda_model *model, uint64_t ptr);
infer_status_t infer_cuda_copy(struct infer_cuda_model *model, uint64_t device,
                               void *host, size_t bytes, int to_device);

void infer_cuda_model_destroy(struct infer_cuda_model *model);

#endif /* INFER_RUNTIME_SRC_CUDA_H */
