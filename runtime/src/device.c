/*===- device.c - device-resident tensors of CUDA models ---------------===*
 *
 * For callers that keep their data on the GPU: device memory in the
 * model's context, synchronous copies, and runs whose inputs and outputs
 * are device addresses. Each entry point checks that the model is a CUDA
 * model first, so on a CPU model (or a build with no GPU) they fail with a
 * message instead of touching a driver.
 *
 *===------------------------------------------------------------------===*/

#include "infer/runtime.h"

#include "cuda.h"
#include "model.h"

static infer_status_t need_device(infer_model_t model) {
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  if (!model->cuda) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' runs on the CPU: device tensors "
                             "need a model compiled with --target=cuda",
                             model->name);
  }
  return NULL;
}

int infer_model_on_device(infer_model_t model) {
  return model && model->cuda ? 1 : 0;
}

infer_status_t infer_model_device_info(infer_model_t model,
                                       infer_device_info_t *out_info) {
  if (!out_info) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_info is NULL");
  }
  infer_status_t status = need_device(model);
  return status ? status : infer_cuda_device_info(model->cuda, out_info);
}

infer_status_t infer_model_device_alloc(infer_model_t model, size_t bytes,
                                        uint64_t *out_ptr) {
  if (!out_ptr) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_ptr is NULL");
  }
  *out_ptr = 0;
  infer_status_t status = need_device(model);
  if (status || bytes == 0) {
    return status;
  }
  return infer_cuda_alloc(model->cuda, bytes, out_ptr);
}

infer_status_t infer_model_device_free(infer_model_t model, uint64_t ptr) {
  infer_status_t status = need_device(model);
  if (status || ptr == 0) {
    return status;
  }
  return infer_cuda_free(model->cuda, ptr);
}

static infer_status_t copy(infer_model_t model, uint64_t device, void *host,
                           size_t bytes, int to_device) {
  infer_status_t status = need_device(model);
  if (status || bytes == 0) {
    return status;
  }
  if (device == 0 || !host) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "a copy of %zu bytes with a null %s address",
                             bytes, device == 0 ? "device" : "host");
  }
  return infer_cuda_copy(model->cuda, device, host, bytes, to_device);
}

infer_status_t infer_model_copy_to_device(infer_model_t model, uint64_t dst,
                                          const void *src, size_t bytes) {
  return copy(model, dst, (void *)(uintptr_t)src, bytes, 1);
}

infer_status_t infer_model_copy_from_device(infer_model_t model, void *dst,
                                            uint64_t src, size_t bytes) {
  return copy(model, src, dst, bytes, 0);
}

infer_status_t infer_model_run_device(infer_model_t model,
                                      const uint64_t *device_inputs,
                                      size_t num_inputs,
                                      const uint64_t *device_outputs,
                                      size_t num_outputs) {
  infer_status_t status = need_device(model);
  if (status) {
    return status;
  }
  const infer_abi_model_t *abi = model->abi;
  status = infer_model_check_arity(model, num_inputs, device_inputs,
                                   num_outputs, device_outputs,
                                   "device_inputs or device_outputs");
  if (status) {
    return status;
  }
  for (size_t i = 0; i < num_inputs + num_outputs; ++i) {
    int is_input = i < num_inputs;
    uint64_t ptr = is_input ? device_inputs[i] : device_outputs[i - num_inputs];
    if (ptr == 0 && infer_cuda_model_buffer_size(model->cuda, i) > 0) {
      const infer_abi_tensor_t *t =
          is_input ? &abi->inputs[i] : &abi->outputs[i - num_inputs];
      return infer_status_make(
          INFER_INVALID_ARGUMENT, "model '%s': device address of %s '%s' is 0",
          model->name, is_input ? "input" : "output", t->name ? t->name : "");
    }
  }
  return infer_cuda_model_run_device(model->cuda, device_inputs,
                                     device_outputs);
}
