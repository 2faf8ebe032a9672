/*===- model.h - the model handle (internal) ---------------------*- C -*-===*
 *
 * What an infer_model_t points to, shared by model.c (loading, running on
 * host tensors) and device.c (device-resident tensors of CUDA models).
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_MODEL_H
#define INFER_RUNTIME_SRC_MODEL_H

#include "infer/abi.h"
#include "infer/status.h"

#include <stddef.h>

#include "arena.h"
#include "pool.h"

#include <stdatomic.h>

struct infer_cuda_model;

struct infer_model {
  void *library; /* from dlopen; NULL for a linked-in model */
  const infer_abi_model_t *abi;
  char *name;
  _Atomic(void *) workspace;     /* a free workspace, or NULL */
  struct infer_cuda_model *cuda; /* the device side of a CUDA model */
  infer_arena_t *arena; /* buffers of a dynamic model's runs, or NULL */
  infer_pool_t *pool;   /* threads of a run (set_executor models), or NULL */
  int intra_op_threads; /* threads a run uses, the caller's included */
};

/* INVALID_ARGUMENT unless the counts are the model's and each array with
 * elements is non-NULL (`what` names the arrays in the message). */
infer_status_t infer_model_check_arity(const struct infer_model *model,
                                       size_t num_inputs, const void *inputs,
                                       size_t num_outputs, const void *outputs,
                                       const char *what);

#endif /* INFER_RUNTIME_SRC_MODEL_H */
