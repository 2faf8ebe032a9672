/*===- model.h - the model handle (internal) ---------------------*- C -*-===*
 *
 * What an infer_model_t points to, shared by model.c (loading, running on
 * host tensors) and device.c (device-resident tensors of CUDA models).
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_MODEL_H
#define INFER_RUNTIME_SRC_MODEL_H

#include "infer/abi.h"

#include "arena.h"

#include <stdatomic.h>

struct infer_cuda_model;

struct infer_model {
  void *library; /* from dlopen; NULL for a linked-in model */
  const infer_abi_model_t *abi;
  char *name;
  _Atomic(void *) workspace; /* a free workspace, or NULL */
  struct infer_cuda_model *cuda; /* the device side of a CUDA model */
  infer_arena_t *arena; /* buffers of a dynamic model's runs, or NULL */
};

#endif /* INFER_RUNTIME_SRC_MODEL_H */
