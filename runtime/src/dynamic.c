/*===- dynamic.c - running the generic variant of a dynamic model -----===*
 *
 * A model compiled with `?` dims sizes its tensors at run time: the runtime
 * checks each input against the declared shape (static dims exactly, the
 * dynamic ones within the compiled profile), passes the sizes to the
 * code with the model's arena (arena.c) for the buffers it allocates, and
 * turns the buffers of the outputs into runtime tensors.
 *
 *===------------------------------------------------------------------===*/

#include "dynamic.h"

#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool infer_abi_is_dynamic(const infer_abi_model_t *abi) {
  return abi->abi_version >= 5 && abi->run_dynamic;
}

/* The offset of input `index`'s dims in the concatenated profile arrays. */
static size_t dims_before(const infer_abi_tensor_t *tensors, size_t index) {
  size_t offset = 0;
  for (size_t i = 0; i < index; ++i) {
    offset += (size_t)tensors[i].rank;
  }
  return offset;
}

infer_status_t infer_dynamic_check_input(const infer_abi_model_t *abi,
                                         size_t index, infer_tensor_t tensor) {
  const infer_abi_tensor_t *expected = &abi->inputs[index];
  if (!tensor) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "input '%s' (index %zu) is NULL", expected->name,
                             index);
  }
  if (infer_tensor_dtype(tensor) != (infer_dtype_t)expected->dtype) {
    return infer_status_make(
        INFER_INVALID_ARGUMENT, "input '%s': expected dtype %s, got %s",
        expected->name, infer_dtype_name((infer_dtype_t)expected->dtype),
        infer_dtype_name(infer_tensor_dtype(tensor)));
  }
  int32_t rank = infer_tensor_rank(tensor);
  if (rank != expected->rank) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "input '%s': expected rank %d, got rank %d",
                             expected->name, (int)expected->rank, (int)rank);
  }
  const int64_t *shape = infer_tensor_shape(tensor);
  size_t offset = dims_before(abi->inputs, index);
  for (int32_t d = 0; d < rank; ++d) {
    int64_t want = expected->shape[d];
    if (want >= 0 && shape[d] != want) {
      return infer_status_make(
          INFER_INVALID_ARGUMENT, "input '%s': dim %d must be %lld, got %lld",
          expected->name, (int)d, (long long)want, (long long)shape[d]);
    }
    int64_t lo = abi->shape_min ? abi->shape_min[offset + d] : 0;
    int64_t hi = abi->shape_max ? abi->shape_max[offset + d] : INT64_MAX;
    if (want < 0 && (shape[d] < lo || shape[d] > hi)) {
      return infer_status_make(
          INFER_INVALID_ARGUMENT,
          "input '%s': dim %d is %lld, outside the range [%lld, %lld] the "
          "model was compiled for (infer-compile --shape-profile)",
          expected->name, (int)d, (long long)shape[d], (long long)lo,
          (long long)hi);
    }
  }
  return NULL;
}

infer_status_t infer_check_failure(const infer_abi_model_t *abi,
                                   const char *model_name,
                                   int32_t failed_check) {
  bool known = failed_check > 0 && (uint32_t)failed_check <= abi->num_errors &&
               abi->errors && abi->errors[failed_check - 1];
  return infer_status_make(
      INFER_INVALID_ARGUMENT,
      "model '%s': the inputs failed a run-time check: %s", model_name,
      known ? abi->errors[failed_check - 1]
            : "(an unknown check: the artifact is damaged)");
}

infer_status_t infer_dynamic_run(const infer_abi_model_t *abi,
                                 const char *model_name,
                                 const infer_tensor_t *inputs, void *workspace,
                                 infer_abi_allocator_t *allocator,
                                 infer_tensor_t *out_outputs) {
  size_t num_inputs = abi->num_inputs, num_outputs = abi->num_outputs;
  size_t in_dims = dims_before(abi->inputs, num_inputs);
  size_t out_dims = dims_before(abi->outputs, num_outputs);
  void **pointers = calloc(num_inputs + 2 * num_outputs + 1, sizeof(void *));
  int64_t *dims = calloc(in_dims + out_dims + 1, sizeof(int64_t));
  if (!pointers || !dims) {
    free(pointers);
    free(dims);
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  void **data = pointers + num_inputs;
  void **allocations = data + num_outputs;
  int64_t *out_shapes = dims + in_dims;
  for (size_t i = 0, at = 0; i < num_inputs; ++i) {
    pointers[i] = infer_tensor_data(inputs[i]);
    memcpy(dims + at, infer_tensor_shape(inputs[i]),
           sizeof(int64_t) * (size_t)abi->inputs[i].rank);
    at += (size_t)abi->inputs[i].rank;
  }
  int32_t failed_check =
      abi->run_dynamic((void *const *)pointers, dims, workspace, data,
                       allocations, out_shapes, allocator);
  infer_status_t status =
      failed_check ? infer_check_failure(abi, model_name, failed_check) : NULL;
  for (size_t i = 0, at = 0; i < num_outputs; ++i) {
    const infer_abi_tensor_t *declared = &abi->outputs[i];
    if (!status) {
      status =
          infer_tensor_create((infer_dtype_t)declared->dtype, declared->rank,
                              out_shapes + at, &out_outputs[i]);
      if (!status) {
        size_t bytes = infer_tensor_byte_size(out_outputs[i]);
        if (bytes) {
          memcpy(infer_tensor_data(out_outputs[i]), data[i], bytes);
        }
      }
    }
    at += (size_t)declared->rank;
    infer_abi_buffer_release(allocations[i]);
  }
  if (status) {
    for (size_t i = 0; i < num_outputs; ++i) {
      infer_tensor_release(out_outputs[i]);
      out_outputs[i] = NULL;
    }
  }
  free(pointers);
  free(dims);
  return status;
}

infer_status_t infer_dynamic_range(const infer_abi_model_t *abi, size_t index,
                                   int64_t *out_min, int64_t *out_opt,
                                   int64_t *out_max) {
  if (index >= abi->num_inputs) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "input index %zu is out of range (%u inputs)",
                             index, (unsigned)abi->num_inputs);
  }
  const infer_abi_tensor_t *t = &abi->inputs[index];
  size_t offset = dims_before(abi->inputs, index);
  bool dynamic = infer_abi_is_dynamic(abi);
  for (int32_t d = 0; d < t->rank; ++d) {
    bool fixed = !dynamic || t->shape[d] >= 0;
    if (out_min) {
      out_min[d] = fixed            ? t->shape[d]
                   : abi->shape_min ? abi->shape_min[offset + d]
                                    : 1;
    }
    if (out_opt) {
      out_opt[d] = fixed            ? t->shape[d]
                   : abi->shape_opt ? abi->shape_opt[offset + d]
                                    : 1;
    }
    if (out_max) {
      out_max[d] = fixed            ? t->shape[d]
                   : abi->shape_max ? abi->shape_max[offset + d]
                                    : INT64_MAX;
    }
  }
  return NULL;
}
