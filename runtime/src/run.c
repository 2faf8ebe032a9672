/*===- run.c - running static and dynamic models on host tensors ------===*
 *
 * infer_model_run keeps its state on the stack or in memory it allocates
 * per call (the outputs it returns), so concurrent runs on one model share
 * nothing mutable. The one exception is a cached workspace: a run takes it
 * with an atomic exchange (allocating a fresh one when another run holds
 * it) and puts it back when done, so steady-state runs allocate nothing
 * but their outputs, and infer_model_run_into, which writes into the
 * caller's tensors, allocates nothing at all.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "infer/runtime.h"

#include "cuda.h"
#include "dynamic.h"
#include "model.h"
#include "profile.h"
#include "tensor_alloc.h"
#include "text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { WORKSPACE_ALIGNMENT = 64 };

static void *workspace_alloc(struct infer_model *model) {
  uint64_t size = model->abi->workspace_size;
  if (model->abi->abi_version < 2 || size == 0) {
    return NULL;
  }
  void *workspace = atomic_exchange(&model->workspace, NULL);
  if (!workspace) {
    /* A size near 2^64 would round to a tiny block: refuse it (the caller
     * reports the workspace as out of memory). */
    if (size > SIZE_MAX - WORKSPACE_ALIGNMENT) {
      return NULL;
    }
    uint64_t rounded = (size + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT *
                       WORKSPACE_ALIGNMENT;
    workspace = aligned_alloc(WORKSPACE_ALIGNMENT, rounded);
  }
  return workspace;
}

/* The model's workspace in *out (NULL for a model with none), or
 * OUT_OF_MEMORY. */
static infer_status_t workspace_take(struct infer_model *model, void **out) {
  *out = workspace_alloc(model);
  if (!*out && model->abi->abi_version >= 2 && model->abi->workspace_size > 0) {
    return infer_status_make(INFER_OUT_OF_MEMORY,
                             "out of memory for the %llu-byte workspace of "
                             "model '%s'",
                             (unsigned long long)model->abi->workspace_size,
                             model->name);
  }
  return NULL;
}

static void workspace_give_back(struct infer_model *model, void *workspace) {
  if (workspace) {
    free(atomic_exchange(&model->workspace, workspace));
  }
}

static infer_abi_executor_t *enter_pool(const struct infer_model *model) {
  const infer_abi_model_t *abi = model->abi;
  if (abi->abi_version < 7 || !abi->set_executor) {
    return NULL;
  }
  infer_pool_begin_run(model->pool);
  return abi->set_executor(infer_pool_executor(model->pool));
}

static void leave_pool(const struct infer_model *model,
                       infer_abi_executor_t *previous) {
  const infer_abi_model_t *abi = model->abi;
  if (abi->abi_version >= 7 && abi->set_executor) {
    abi->set_executor(previous);
  }
}

/*===-- Running ---------------------------------------------------------===*/

/* Checks one input tensor against its declaration. */
/* INVALID_ARGUMENT unless `tensor` has the dtype and shape `expected`
 * declares for the model's `role` ("input" or "output") `index`. */
static infer_status_t check_tensor(const char *role,
                                   const infer_abi_tensor_t *expected,
                                   size_t index, infer_tensor_t tensor) {
  if (!tensor) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "%s '%s' (index %zu) is NULL", role,
                             expected->name, index);
  }
  int32_t rank = infer_tensor_rank(tensor);
  const int64_t *shape = infer_tensor_shape(tensor);
  bool same = infer_tensor_dtype(tensor) == (infer_dtype_t)expected->dtype &&
              rank == expected->rank;
  for (int32_t d = 0; same && d < rank; ++d) {
    same = shape[d] == expected->shape[d];
  }
  if (same) {
    return NULL;
  }
  char message[1024];
  infer_text_t text = {message, sizeof(message), 0};
  message[0] = '\0';
  infer_text_append(&text, "%s '%s': expected shape ", role, expected->name);
  infer_text_append_type(&text, expected->dtype, expected->rank,
                         expected->shape);
  infer_text_append(&text, ", got ");
  infer_text_append_type(&text, infer_tensor_dtype(tensor), rank, shape);
  return infer_status_make(INFER_INVALID_ARGUMENT, "%s", message);
}

infer_status_t infer_model_check_arity(const struct infer_model *model,
                                       size_t num_inputs, const void *inputs,
                                       size_t num_outputs, const void *outputs,
                                       const char *what) {
  const infer_abi_model_t *abi = model->abi;
  if (num_inputs != abi->num_inputs || num_outputs != abi->num_outputs) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' takes %u inputs and %u outputs, got "
                             "%zu inputs and %zu outputs",
                             model->name, (unsigned)abi->num_inputs,
                             (unsigned)abi->num_outputs, num_inputs,
                             num_outputs);
  }
  if ((num_inputs > 0 && !inputs) || (num_outputs > 0 && !outputs)) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "%s is NULL", what);
  }
  return NULL;
}

/* Buffer arrays of up to this many pointers live on the caller's stack: a
 * call allocates nothing once the model's workspace exists. */
enum { STACK_BUFFERS = 64 };

/* An array for the entry point's buffers (inputs, outputs, then the
 * workspace from ABI version 2 on): `stack` when it fits, else the heap
 * (NULL when out of memory). */
static void **buffer_array(const struct infer_model *model, void **stack) {
  const infer_abi_model_t *abi = model->abi;
  size_t count = (size_t)abi->num_inputs + abi->num_outputs + 1;
  return count <= STACK_BUFFERS ? stack : malloc(count * sizeof(void *));
}

/* Runs a static-shape model on `buffers` (the inputs' and outputs' data,
 * then a slot this fills with the workspace); with `times_ns`, a profiled
 * model's segment boundaries there (num_segments + 1 values, ns from the
 * first): its cycle-counter stamps on a CPU, its launches' events on a
 * GPU. */
static infer_status_t run_buffers(struct infer_model *model, void **buffers,
                                  double *times_ns) {
  const infer_abi_model_t *abi = model->abi;
  if (model->cuda) {
    /* CUDA models keep their workspace on the device. */
    return times_ns ? infer_cuda_model_run_profiled(
                          model->cuda, (void *const *)buffers, times_ns)
                    : infer_cuda_model_run(model->cuda, (void *const *)buffers);
  }
  void *workspace = NULL;
  if (abi->abi_version >= 2) {
    infer_status_t status = workspace_take(model, &workspace);
    if (status) {
      return status;
    }
    buffers[abi->num_inputs + abi->num_outputs] = workspace;
  }
  int32_t failed_check = 0;
  if (abi->abi_version >= 4) {
    infer_abi_executor_t *previous = enter_pool(model);
    failed_check = abi->run((void *const *)buffers);
    leave_pool(model, previous);
  } else {
    ((infer_abi_run_v1_fn)(void (*)(void))abi->run)((void *const *)buffers);
  }
  const infer_abi_profile_t *profile = infer_abi_profile(abi);
  double rate = 0;
  if (times_ns && profile && !infer_profile_ticks_per_ns(&rate)) {
    const char *stamps = (const char *)workspace + profile->stamps_offset;
    uint64_t first = 0;
    memcpy(&first, stamps, sizeof(first));
    for (uint32_t j = 0; j <= profile->num_segments; ++j) {
      uint64_t stamp = 0;
      memcpy(&stamp, stamps + (size_t)j * sizeof(stamp), sizeof(stamp));
      times_ns[j] = (double)(stamp - first) / rate;
    }
  }
  workspace_give_back(model, workspace);
  return failed_check ? infer_check_failure(abi, model->name, failed_check)
                      : NULL;
}

/* Runs a static-shape model from `inputs` into `outputs` (tensors of the
 * declared dtypes and shapes). */
static infer_status_t run_static(struct infer_model *model,
                                 const infer_tensor_t *inputs,
                                 const infer_tensor_t *outputs,
                                 double *times_ns) {
  const infer_abi_model_t *abi = model->abi;
  void *stack[STACK_BUFFERS];
  void **buffers = buffer_array(model, stack);
  if (!buffers) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < abi->num_inputs; ++i) {
    buffers[i] = infer_tensor_data(inputs[i]);
  }
  for (size_t i = 0; i < abi->num_outputs; ++i) {
    buffers[abi->num_inputs + i] = infer_tensor_data(outputs[i]);
  }
  infer_status_t status = run_buffers(model, buffers, times_ns);
  if (buffers != stack) {
    free(buffers);
  }
  return status;
}

infer_status_t infer_model_run(infer_model_t model,
                               const infer_tensor_t *inputs, size_t num_inputs,
                               infer_tensor_t *out_outputs,
                               size_t num_outputs) {
  if (out_outputs) {
    for (size_t i = 0; i < num_outputs; ++i) {
      out_outputs[i] = NULL;
    }
  }
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  const infer_abi_model_t *abi = model->abi;
  infer_status_t arity =
      infer_model_check_arity(model, num_inputs, inputs, num_outputs,
                              out_outputs, "inputs or out_outputs");
  if (arity) {
    return arity;
  }
  bool dynamic = infer_abi_is_dynamic(abi);
  for (size_t i = 0; i < num_inputs; ++i) {
    infer_status_t status =
        dynamic ? infer_dynamic_check_input(abi, i, inputs[i])
                : check_tensor("input", &abi->inputs[i], i, inputs[i]);
    if (status) {
      return status;
    }
  }
  if (dynamic) {
    void *workspace = NULL;
    infer_status_t taken = workspace_take(model, &workspace);
    if (taken) {
      return taken;
    }
    infer_abi_executor_t *previous = enter_pool(model);
    infer_status_t status =
        infer_dynamic_run(abi, model->name, inputs, workspace,
                          infer_arena_allocator(model->arena), out_outputs);
    leave_pool(model, previous);
    workspace_give_back(model, workspace);
    return status;
  }

  infer_status_t status = NULL;
  for (size_t i = 0; i < num_outputs && !status; ++i) {
    const infer_abi_tensor_t *declared = &abi->outputs[i];
    /* The model writes every element of its outputs. */
    status = infer_tensor_create_uninitialized((infer_dtype_t)declared->dtype,
                                               declared->rank, declared->shape,
                                               &out_outputs[i]);
  }
  if (!status) {
    status = run_static(model, inputs, out_outputs, NULL);
  }
  if (status) {
    for (size_t i = 0; i < num_outputs; ++i) {
      infer_tensor_release(out_outputs[i]);
      out_outputs[i] = NULL;
    }
  }
  return status;
}

/* Whether the bytes of tensors `a` and `b` overlap. */
static bool overlap(infer_tensor_t a, infer_tensor_t b) {
  uintptr_t a0 = (uintptr_t)infer_tensor_data(a);
  uintptr_t b0 = (uintptr_t)infer_tensor_data(b);
  size_t a_bytes = infer_tensor_byte_size(a);
  size_t b_bytes = infer_tensor_byte_size(b);
  return a_bytes > 0 && b_bytes > 0 && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

/* The checks of infer_model_run_into: a static model, tensors of the
 * declared dtypes and shapes, outputs that share no byte with any tensor. */
static infer_status_t check_run_into(infer_model_t model,
                                     const infer_tensor_t *inputs,
                                     size_t num_inputs,
                                     const infer_tensor_t *outputs,
                                     size_t num_outputs) {
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  const infer_abi_model_t *abi = model->abi;
  infer_status_t status = infer_model_check_arity(
      model, num_inputs, inputs, num_outputs, outputs, "inputs or outputs");
  if (status) {
    return status;
  }
  if (infer_abi_is_dynamic(abi)) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' has dims known only at run time: its "
                             "outputs' shapes come from the run, so call "
                             "infer_model_run",
                             model->name);
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    if ((status = check_tensor("input", &abi->inputs[i], i, inputs[i]))) {
      return status;
    }
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    if ((status = check_tensor("output", &abi->outputs[i], i, outputs[i]))) {
      return status;
    }
    /* The kernels may write an output before they finish reading an
     * input, and outputs are written independently. */
    for (size_t j = 0; j < num_inputs; ++j) {
      if (overlap(outputs[i], inputs[j])) {
        return infer_status_make(INFER_INVALID_ARGUMENT,
                                 "output '%s' shares memory with input '%s'",
                                 abi->outputs[i].name, abi->inputs[j].name);
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (overlap(outputs[i], outputs[j])) {
        return infer_status_make(INFER_INVALID_ARGUMENT,
                                 "output '%s' shares memory with output '%s'",
                                 abi->outputs[i].name, abi->outputs[j].name);
      }
    }
  }
  return NULL;
}

infer_status_t infer_model_run_into(infer_model_t model,
                                    const infer_tensor_t *inputs,
                                    size_t num_inputs,
                                    const infer_tensor_t *outputs,
                                    size_t num_outputs) {
  infer_status_t status =
      check_run_into(model, inputs, num_inputs, outputs, num_outputs);
  return status ? status : run_static(model, inputs, outputs, NULL);
}

infer_status_t infer_model_run_profiled(
    infer_model_t model, const infer_tensor_t *inputs, size_t num_inputs,
    const infer_tensor_t *outputs, size_t num_outputs,
    infer_profile_segment_t *out_segments, size_t num_segments) {
  infer_status_t status =
      check_run_into(model, inputs, num_inputs, outputs, num_outputs);
  if (status) {
    return status;
  }
  const infer_abi_profile_t *profile = infer_abi_profile(model->abi);
  if (!profile) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' was compiled without --profile",
                             model->name);
  }
  if (num_segments != profile->num_segments ||
      (num_segments > 0 && !out_segments)) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' has %u profile segments, got room "
                             "for %zu",
                             model->name, (unsigned)profile->num_segments,
                             num_segments);
  }
  double rate = 0;
  if (!model->cuda && (status = infer_profile_ticks_per_ns(&rate))) {
    return status;
  }
  double stack[STACK_BUFFERS];
  double *times = num_segments < STACK_BUFFERS
                      ? stack
                      : malloc((num_segments + 1) * sizeof(double));
  if (!times) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  status = run_static(model, inputs, outputs, times);
  for (size_t j = 0; !status && j < num_segments; ++j) {
    out_segments[j].kernel = profile->segments[j];
    out_segments[j].begin_ns = times[j];
    out_segments[j].end_ns = times[j + 1];
  }
  if (times != stack) {
    free(times);
  }
  return status;
}
